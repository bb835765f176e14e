import type { IExecuteFunctions } from 'n8n-workflow';

import { api } from '../../../../src/client';
import { workspaceConnection } from '../../../shared/connections';
import { searchMethod, searchPageQuery } from '../../../shared/lists';
import { locator, locatorValue } from '../../../shared/locator';
import { refuseBadUsername } from '../../../shared/phone';

/** A contact of the chosen instance: picked from its contacts (searchable), or given by ID or expression. */
export const contactLocator = locator({
	displayName: 'Contact',
	name: 'contactId',
	noun: 'contact',
	searchListMethod: 'searchContacts',
	idPlaceholder: 'e.g. ct_5a1c9e7f3b2d4a60 or @maria.lopez',
	description:
		"The contact to use: its ID (a received message's from, when the person hides their number), or the person's @username",
});

/** The instance and contact an item names: the path of every single-contact request. */
export function contactOf(
	context: IExecuteFunctions,
	itemIndex: number,
): { instanceId: string; contactId: string } {
	const contactId = locatorValue(context, 'contactId', itemIndex);
	refuseBadUsername(contactId, 'Contact', itemIndex, context.getNode());
	return { instanceId: locatorValue(context, 'instanceId', itemIndex), contactId };
}

/**
 * Fills "From list": the contacts of the instance chosen above. The service searches names and numbers
 * itself, so the filter is passed on.
 */
export const searchContacts = searchMethod({
	connection: workspaceConnection,
	scope: api.workspace.contacts.list.scope,
	noun: 'contact',
	dependsOn: 'instanceId',
	serviceSearches: true,
	page: async (client, request) =>
		await client.contacts.list({ instanceId: request.parent, query: searchPageQuery(request) }),
	toItem: (contact) => {
		// A person who hides their number is shown by their username.
		const shown = contact.phoneNumber ?? (contact.username ? `@${contact.username}` : contact.id);
		return { name: contact.name ? `${contact.name} (${shown})` : shown, value: contact.id };
	},
});
