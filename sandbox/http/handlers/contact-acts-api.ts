import { z } from 'zod/v4';

import { operation } from '../../../src/client/operation';
import {
	InstanceRestriction,
	MessageDeleted,
	MessageEdited,
	MessageReaction,
	PRESENCE_STATES,
	PresenceUpdate,
} from '../../../src/client/resources/contact-acts';
import { MAX_LENGTH } from '../../../src/client/resources/message-sends';
import { pathParams, text } from '../../../src/client/schemas';
import { GROUP_ID_PATTERN } from '../../../src/client/chat-ids';
import { requireInstance, requireMessage } from '../../channel/instance-records';
import {
	deleteAsContact,
	editAsContact,
	reactAsContact,
	updatePresence,
} from '../../channel/contact-acts';
import {
	RESTRICTION_REASONS,
	restrictInstance,
	type RestrictionReason,
} from '../../channel/restrictions';
import { type ResourceHandlers } from './context';
import { Writer } from './inbound-media';

/**
 * Sandbox-only endpoints for what a contact does besides writing (channel/contact-acts.ts), and for the channel
 * restricting an instance (channel/restrictions.ts). Served beside the other sandbox-only endpoints
 * (sandbox-api.ts); the console's phone calls them.
 */

const onMessage = pathParams('instanceId', 'messageId');
const actor = Writer.optional().describe(
	'Who acts: in a 1:1 chat its contact (the default); required in a group, a member. A number, or `@username`',
);

export const contactActsOperations = {
	react: operation({
		method: 'POST',
		path: '/sandbox/instances/{instanceId}/messages/{messageId}/react',
		summary:
			'Sandbox only: the contact puts an emoji on a message of their chat, or takes theirs off with an empty one (message.reaction)',
		scope: 'messaging:write',
		params: onMessage,
		body: z.strictObject({
			emoji: text({ max: 32 }).describe('The emoji; empty: the reaction is taken off'),
			from: actor,
		}),
		response: MessageReaction,
		status: 201,
	}),
	editAsContact: operation({
		method: 'POST',
		path: '/sandbox/instances/{instanceId}/messages/{messageId}/edit',
		summary:
			'Sandbox only: the contact edits the text of a text message they sent (message.edited, `by: contact`)',
		scope: 'messaging:write',
		params: onMessage,
		body: z.strictObject({ text: text({ min: 1, max: MAX_LENGTH.text }), from: actor }),
		response: MessageEdited,
		status: 200,
	}),
	deleteAsContact: operation({
		method: 'POST',
		path: '/sandbox/instances/{instanceId}/messages/{messageId}/delete',
		summary:
			'Sandbox only: the contact deletes a message they sent, for everyone (message.deleted, `by: contact`); a second time is 409 `message_deleted`',
		scope: 'messaging:write',
		params: onMessage,
		body: z.strictObject({ from: actor }).optional(),
		response: MessageDeleted,
		status: 200,
	}),
	presence: operation({
		method: 'POST',
		path: '/sandbox/instances/{instanceId}/presence',
		summary:
			'Sandbox only: the contact types or records in a chat, or goes online or offline (presence.updated)',
		scope: 'messaging:write',
		params: pathParams('instanceId'),
		body: z.strictObject({
			from: Writer,
			state: z.enum(PRESENCE_STATES),
			groupId: z
				.string()
				.regex(GROUP_ID_PATTERN, 'must be a group id ending in @g.us')
				.optional()
				.describe('Typing or recording in this group; their own chat when absent'),
		}),
		response: PresenceUpdate,
		status: 200,
	}),
	restrict: operation({
		method: 'POST',
		path: '/sandbox/instances/{instanceId}/restrict',
		summary:
			'Sandbox only: the channel restricts the instance, a warning before a ban (instance.restricted)',
		scope: 'messaging:write',
		params: pathParams('instanceId'),
		body: z.strictObject({
			reason: z
				.enum(Object.keys(RESTRICTION_REASONS) as [RestrictionReason, ...RestrictionReason[]])
				.default('spam_reports'),
			hours: z
				.number()
				.int()
				.min(1)
				.max(720)
				.optional()
				.describe('How long it lasts; no end when absent'),
		}),
		response: InstanceRestriction,
		status: 200,
	}),
};

export const contactActsHandlers: ResourceHandlers<typeof contactActsOperations> = {
	react: ({ core, workspaceId, params, body }) =>
		reactAsContact(
			core,
			requireMessage(core, workspaceId, params.instanceId, params.messageId),
			body,
		),
	editAsContact: ({ core, workspaceId, params, body }) =>
		editAsContact(
			core,
			requireMessage(core, workspaceId, params.instanceId, params.messageId),
			body,
		),
	deleteAsContact: ({ core, workspaceId, params, body }) =>
		deleteAsContact(
			core,
			requireMessage(core, workspaceId, params.instanceId, params.messageId),
			body ?? {},
		),
	presence: ({ core, workspaceId, params, body }) =>
		updatePresence(core, requireInstance(core, workspaceId, params.instanceId), body),
	restrict: ({ core, workspaceId, params, body }) =>
		restrictInstance(core, requireInstance(core, workspaceId, params.instanceId), body),
};
