import type { api } from '../../../src/client/api';
import type { SandboxCore } from '../../core';
import { conflict, notFound } from '../../errors';
import { newId, type ContactRecord } from '../../store/store';
import { chatIdOf, numberExists } from '../../channel/chat-ids';
import { paginate, type ResourceHandlers } from './context';
import { requireConnected, requireInstance } from '../../channel/instance-records';
import { findPerson } from '../../channel/people';
import { presentContact } from '../../present';

/**
 * The instance's address book: one contact per number. Editing it is local; checking numbers and
 * blocking go through the channel and need a connected instance. A blocked contact can neither be
 * written to nor be received from.
 */

export const contactHandlers: ResourceHandlers<typeof api.workspace.contacts> = {
	checkNumbers: ({ core, workspaceId, params, body }) => {
		requireConnected(core, workspaceId, params.instanceId);
		return {
			data: body.phoneNumbers.map((phoneNumber) => {
				const exists = numberExists(phoneNumber);
				return { phoneNumber, exists, chatId: exists ? chatIdOf(phoneNumber) : null };
			}),
		};
	},

	create: ({ core, workspaceId, params, body }) => {
		const instance = requireInstance(core, workspaceId, params.instanceId);
		const existing = core.store
			.all(
				'contacts',
				(contact) => contact.instanceId === instance.id && contact.phoneNumber === body.phoneNumber,
			)
			.at(0);
		if (existing) {
			throw conflict(
				'contact_exists',
				`A contact for ${body.phoneNumber} already exists on this instance (${existing.id})`,
			);
		}
		const now = core.now().toISOString();
		const contact = core.store.insert('contacts', {
			id: newId('ct'),
			workspaceId,
			instanceId: instance.id,
			phoneNumber: body.phoneNumber,
			name: body.name ?? null,
			email: body.email ?? null,
			tags: body.tags ?? [],
			blocked: false,
			createdAt: now,
			updatedAt: now,
		});
		core.emit(workspaceId, 'contact.created', presentContact(contact), { instanceId: instance.id });
		return presentContact(contact);
	},

	list: ({ core, workspaceId, params, query }) => {
		const instance = requireInstance(core, workspaceId, params.instanceId);
		const search = query.search?.toLowerCase();
		const contacts = core.store.all(
			'contacts',
			(contact) =>
				contact.instanceId === instance.id &&
				(query.blocked === undefined || contact.blocked === query.blocked) &&
				(search === undefined ||
					(contact.phoneNumber ?? '').includes(search) ||
					(contact.username ?? '').toLowerCase().includes(search) ||
					(contact.name ?? '').toLowerCase().includes(search)),
		);
		return paginate(contacts, query, presentContact);
	},

	get: ({ core, workspaceId, params }) =>
		presentContact(requireContact(core, workspaceId, params.instanceId, params.contactId)),

	update: ({ core, workspaceId, params, body }) => {
		const contact = requireContact(core, workspaceId, params.instanceId, params.contactId);
		if (body.name !== undefined) contact.name = body.name;
		if (body.email !== undefined) contact.email = body.email;
		if (body.tags !== undefined) contact.tags = body.tags;
		return changed(core, contact);
	},

	delete: ({ core, workspaceId, params }) => {
		const contact = requireContact(core, workspaceId, params.instanceId, params.contactId);
		core.store.remove('contacts', contact.id);
	},

	block: ({ core, workspaceId, params }) => setBlocked(core, workspaceId, params, true),
	unblock: ({ core, workspaceId, params }) => setBlocked(core, workspaceId, params, false),
};

/** The contact a path names: by its id, or by any name of the person (`@username`, number, chat id). */
function requireContact(
	core: SandboxCore,
	workspaceId: string,
	instanceId: string,
	contactId: string,
): ContactRecord {
	const person = findPerson(core, requireInstance(core, workspaceId, instanceId), contactId);
	const contact = typeof person === 'object' ? person.contact : undefined;
	if (!contact) throw notFound('Contact', contactId);
	return contact;
}

function setBlocked(
	core: SandboxCore,
	workspaceId: string,
	params: { instanceId: string; contactId: string },
	blocked: boolean,
) {
	const contact = requireContact(core, workspaceId, params.instanceId, params.contactId);
	requireConnected(core, workspaceId, params.instanceId);
	contact.blocked = blocked;
	return changed(core, contact);
}

function changed(core: SandboxCore, contact: ContactRecord) {
	contact.updatedAt = core.now().toISOString();
	core.emit(contact.workspaceId, 'contact.updated', presentContact(contact), {
		instanceId: contact.instanceId,
	});
	return presentContact(contact);
}
