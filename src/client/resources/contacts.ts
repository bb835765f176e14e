import { z } from '../zod';

import { operation } from '../operation';
import { Id, ListQuery, named, page, pathParams, PhoneNumber, Timestamp, text } from '../schemas';

export const Contact = named(
	'Contact',
	z.looseObject({
		id: Id.describe(
			'The contact id (`ct_…`): stable, opaque, and needing no number. Names this person wherever a recipient or chat is taken, and is what received messages carry in `from` when the person hides their number',
		),
		instanceId: Id.optional(),
		phoneNumber: z
			.string()
			.nullable()
			.optional()
			.describe('Their number in E.164; null when the person hides it'),
		username: z
			.string()
			.optional()
			.describe(
				'Their username without the `@`, when they have one; `@<username>` names them wherever a recipient or chat is taken',
			),
		chatId: z
			.string()
			.nullable()
			.optional()
			.describe(
				'Their chat id: `<digits>@s.whatsapp.net` from their number, or `<digits>@lid` when they hide it',
			),
		name: z.string().nullable().optional(),
		email: z.string().nullable().optional(),
		tags: z.array(z.string()).optional(),
		blocked: z.boolean().optional(),
		createdAt: Timestamp.optional(),
		updatedAt: Timestamp.optional(),
	}),
);
export type Contact = z.output<typeof Contact>;

const Tags = z.array(text({ min: 1, max: 50 })).max(50);

export const CreateContact = named(
	'CreateContact',
	z.strictObject({
		phoneNumber: PhoneNumber,
		name: text({ min: 1, max: 200 }).optional(),
		email: z.email().optional(),
		tags: Tags.optional(),
	}),
);

export const UpdateContact = named(
	'UpdateContact',
	z.strictObject({
		name: text({ min: 1, max: 200 }).optional(),
		email: z.email().optional(),
		tags: Tags.optional(),
	}),
);

export const CheckNumbers = named(
	'CheckNumbers',
	z.strictObject({ phoneNumbers: z.array(PhoneNumber).min(1).max(500) }),
);

export const NumberCheckList = named(
	'NumberCheckList',
	z.looseObject({
		data: z.array(
			z.looseObject({
				phoneNumber: z.string(),
				exists: z.boolean(),
				chatId: z.string().nullable().optional(),
			}),
		),
	}),
);

export const ContactListQuery = ListQuery.extend({
	search: text({ max: 200 }).optional().describe('Part of a name, number or username'),
	blocked: z
		.boolean()
		.optional()
		.describe('`true` for the blocked contacts only, `false` for the others; left out, both'),
});

const onInstance = pathParams('instanceId');
const byId = pathParams('instanceId', 'contactId');
/** A contact is named by its id, or by any name of the person (the contract, 2026-11-28 "people"). */
const CONTACT_NAMED =
	"`contactId` is the contact id (`ct_…`), or the person's `@username`, number in E.164 or chat id.";
const item = '/instances/{instanceId}/contacts/{contactId}';

function blockOperation(action: 'block' | 'unblock') {
	return operation({
		method: 'POST',
		path: `${item}/${action}`,
		summary: `${action === 'block' ? 'Block' : 'Unblock'} a contact`,
		description: CONTACT_NAMED,
		scope: 'messaging:write',
		params: byId,
		response: Contact,
		status: 200,
	});
}

export const contactOperations = {
	checkNumbers: operation({
		method: 'POST',
		path: '/instances/{instanceId}/contacts/check',
		summary: 'Check which numbers exist on the channel',
		scope: 'messaging:read',
		params: onInstance,
		body: CheckNumbers,
		response: NumberCheckList,
		status: 200,
	}),
	create: operation({
		method: 'POST',
		path: '/instances/{instanceId}/contacts',
		summary: 'Create a contact',
		scope: 'messaging:write',
		params: onInstance,
		body: CreateContact,
		response: Contact,
		status: 201,
		creates: true,
	}),
	list: operation({
		method: 'GET',
		path: '/instances/{instanceId}/contacts',
		summary: 'List contacts',
		scope: 'messaging:read',
		params: onInstance,
		query: ContactListQuery,
		response: page(Contact),
		status: 200,
		paginated: true,
	}),
	get: operation({
		method: 'GET',
		path: item,
		summary: 'Get a contact',
		description: CONTACT_NAMED,
		scope: 'messaging:read',
		params: byId,
		response: Contact,
		status: 200,
	}),
	update: operation({
		method: 'PATCH',
		path: item,
		summary: 'Update a contact',
		description: CONTACT_NAMED,
		scope: 'messaging:write',
		params: byId,
		body: UpdateContact,
		response: Contact,
		status: 200,
	}),
	delete: operation({
		method: 'DELETE',
		path: item,
		summary: 'Delete a contact',
		description: CONTACT_NAMED,
		scope: 'messaging:write',
		params: byId,
		status: 204,
	}),
	block: blockOperation('block'),
	unblock: blockOperation('unblock'),
};
