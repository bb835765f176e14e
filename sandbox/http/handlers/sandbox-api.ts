import { z } from 'zod/v4';

import { api } from '../../../src/client/api';
import { operation } from '../../../src/client/operation';
import {
	inboundMediaHandlers,
	inboundMediaOperations,
	QuotedMessageId,
	Writer,
} from './inbound-media';
import { pollsCallsHandlers, pollsCallsOperations } from './polls-calls-api';
import { contactActsHandlers, contactActsOperations } from './contact-acts-api';
import { Instance } from '../../../src/client/resources/instances';
import { Message } from '../../../src/client/resources/messages';
import {
	MAX_LENGTH,
	MENTIONS_RULE,
	mentionFields,
	mentionsShown,
} from '../../../src/client/resources/message-sends';
import { Id, pathParams, PhoneNumber, text } from '../../../src/client/schemas';
import { requireInstance, requireMessage } from '../../channel/instance-records';
import { type ResourceHandlers } from './context';
import { conflict, HttpError, notFound } from '../../errors';
import type { MessageRecord } from '../../store/store';
import { requireScope } from '../../store/keys';
import { completeConnection, disconnect } from './instances';
import { offeredChoices, receiveMessage } from '../../channel/phone';
import { presentInstance, presentMessage } from '../../present';
import { statusViewHandlers, statusViewOperations } from './status-views';
import { scheduledDueHandlers, scheduledDueOperations } from './scheduled-due';
import { businessPhoneHandlers, businessPhoneOperations } from './business-phone';
import { GROUP_ID_PATTERN, isGroupChatId } from '../../../src/client/chat-ids';

/**
 * Endpoints that exist only in the sandbox, standing in for what happens on a phone: scanning the QR code,
 * a contact writing in, the phone going offline. Served at `/sandbox/...` (not under `/api/v1`), with a
 * workspace key, validated and answered like the contract's own operations.
 */

const byInstance = pathParams('instanceId');

export const sandboxOperations = {
	scan: operation({
		method: 'POST',
		path: '/sandbox/instances/{instanceId}/scan',
		summary:
			'Sandbox only: scan the QR code (or enter the pairing code) on the phone; the instance connects',
		scope: 'messaging:write',
		params: byInstance,
		body: z.strictObject({
			phoneNumber: PhoneNumber.optional().describe(
				'The number of the phone that scans; made up when omitted',
			),
		}),
		response: Instance,
		status: 200,
	}),
	inbound: operation({
		method: 'POST',
		path: '/sandbox/instances/{instanceId}/inbound',
		summary: 'Sandbox only: a contact sends a text message to the instance (message.received)',
		scope: 'messaging:write',
		params: byInstance,
		body: z
			.strictObject({
				from: Writer,
				text: text({ min: 1, max: MAX_LENGTH.text }).default('Hello from the sandbox'),
				groupId: z
					.string()
					.regex(GROUP_ID_PATTERN, 'must be a group id ending in @g.us')
					.optional(),
				quotedMessageId: QuotedMessageId,
				...mentionFields,
			})
			// A contact's text shows whom it mentions, as a sent one must: the channel tells no one otherwise.
			.superRefine((body, ctx) => mentionsShown(body.text, body.mentions, ctx))
			.describe(MENTIONS_RULE),
		response: Message,
		status: 201,
	}),
	tap: operation({
		method: 'POST',
		path: '/sandbox/instances/{instanceId}/messages/{messageId}/tap',
		summary:
			'Sandbox only: the recipient taps a reply button or list row of an interactive message the instance sent (message.received with `reply`)',
		scope: 'messaging:write',
		params: pathParams('instanceId', 'messageId'),
		body: z.strictObject({
			id: Id.describe('The id of the button or row tapped: one the message offered'),
			from: PhoneNumber.optional().describe(
				'Who taps; the recipient of the message by default (required for a message sent to a group)',
			),
		}),
		response: Message,
		status: 201,
	}),
	disconnect: operation({
		method: 'POST',
		path: '/sandbox/instances/{instanceId}/disconnect',
		summary:
			'Sandbox only: the phone goes offline; the instance disconnects (instance.disconnected)',
		scope: 'messaging:write',
		params: byInstance,
		response: Instance,
		status: 200,
	}),
	redeliver: operation({
		method: 'POST',
		path: '/sandbox/webhooks/{webhookId}/redeliver',
		summary:
			'Sandbox only: deliver an event to a webhook (of any surface) again now, `copies` times at once, as a service does when an answer was lost; answers the status each delivery got',
		scope: 'messaging:write',
		params: pathParams('webhookId'),
		body: z.strictObject({
			eventId: Id,
			copies: z.number().int().min(1).max(20).default(1),
		}),
		response: z.looseObject({
			eventId: z.string(),
			webhookId: z.string(),
			statuses: z.array(z.number().nullable()),
		}),
		status: 200,
	}),
	announceDeliveries: operation({
		method: 'POST',
		path: '/sandbox/webhooks/{webhookId}/announced-deliveries',
		summary:
			"Sandbox only: say that events were delivered to a webhook (of any surface) by someone else, a benchmark or a test that signs and posts deliveries itself, so that its receiver may claim them (claims are of delivered events only); kept in memory. Takes a key that also holds the scope a claim of the webhook's surface takes (`automation:write` for an automation webhook)",
		scope: 'messaging:write',
		params: pathParams('webhookId'),
		body: z.strictObject({ eventIds: z.array(Id).min(1).max(1000) }),
		response: z.looseObject({ webhookId: z.string(), announced: z.number() }),
		status: 200,
	}),
	...inboundMediaOperations,
	...pollsCallsOperations,
	...contactActsOperations,
	...statusViewOperations,
	...scheduledDueOperations,
	...businessPhoneOperations,
};

/** How many announced deliveries are kept (a benchmark announces a few thousand). */
const MAX_ANNOUNCED_EVENTS = 100_000;

export const sandboxHandlers: ResourceHandlers<typeof sandboxOperations> = {
	scan: ({ core, workspaceId, params, body }) => {
		const instance = requireInstance(core, workspaceId, params.instanceId);
		completeConnection(core, instance, body.phoneNumber);
		return presentInstance(instance);
	},
	inbound: ({ core, workspaceId, params, body }) => {
		const instance = requireInstance(core, workspaceId, params.instanceId);
		return presentMessage(receiveMessage(core, instance, body));
	},
	tap: ({ core, workspaceId, params, body }) => {
		const instance = requireInstance(core, workspaceId, params.instanceId);
		const message = requireMessage(core, workspaceId, instance.id, params.messageId);
		return presentMessage(receiveMessage(core, instance, tapOn(message, body)));
	},
	disconnect: ({ core, workspaceId, params }) => {
		const instance = requireInstance(core, workspaceId, params.instanceId);
		if (instance.status === 'connected') disconnect(core, instance);
		return presentInstance(instance);
	},
	redeliver: async ({ core, workspaceId, params, body }) => {
		const delivery = core.store
			.all('deliveries', (record) => record.workspaceId === workspaceId)
			.find((record) => record.webhookId === params.webhookId && record.eventId === body.eventId);
		if (!delivery) throw notFound('Delivery of that event to webhook', params.webhookId);
		const statuses = await core.deliveries.redeliver(delivery, body.copies);
		return { eventId: body.eventId, webhookId: params.webhookId, statuses };
	},
	announceDeliveries: ({ core, workspaceId, scopes, params, body }) => {
		const webhook = core.store.find('webhooks', workspaceId, params.webhookId);
		if (!webhook) throw notFound('Webhook', params.webhookId);
		// Announcing makes claims of those events possible: it takes what a claim of that surface takes.
		requireScope({ scopes }, api[webhook.surface].webhooks.claimEvent.scope);
		for (const eventId of body.eventIds) core.announcedEvents.add(`${webhook.id}:${eventId}`);
		// Bounded like everything the sandbox keeps: the oldest announcements go first.
		for (const oldest of core.announcedEvents) {
			if (core.announcedEvents.size <= MAX_ANNOUNCED_EVENTS) break;
			core.announcedEvents.delete(oldest);
		}
		return { webhookId: webhook.id, announced: body.eventIds.length };
	},
	...inboundMediaHandlers,
	...pollsCallsHandlers,
	...contactActsHandlers,
	...statusViewHandlers,
	...scheduledDueHandlers,
	...businessPhoneHandlers,
};

/** A tap on a choice the message offered, as the message it becomes; refused for anything else. */
function tapOn(message: MessageRecord, body: { id: string; from?: string }) {
	if (message.closedByAnswerAt) {
		throw conflict(
			'question_answered',
			`Message ${message.id} was answered at ${message.closedByAnswerAt} and its buttons or list were removed; there is nothing to tap`,
		);
	}
	if (message.direction !== 'outbound' || (message.type !== 'buttons' && message.type !== 'list')) {
		throw conflict(
			'not_interactive',
			`Message ${message.id} is not a buttons or list message this instance sent; there is nothing to tap`,
		);
	}
	const choices = offeredChoices(message);
	const choice = choices.find((offered) => offered.id === body.id);
	if (!choice) {
		const offered = choices.map((offered) => `"${offered.id}"`).join(', ');
		throw new HttpError(
			400,
			'choice_not_offered',
			`Message ${message.id} offers no ${message.type === 'list' ? 'row' : 'button'} with id "${body.id}"; it offers ${offered}`,
			[{ field: 'body.id', message: `must be one of ${offered}` }],
		);
	}
	const group = isGroupChatId(message.to) ? message.to : undefined;
	const from = group ? body.from : (message.to ?? undefined);
	if (!from || (body.from !== undefined && body.from !== from)) {
		const problem = group
			? 'required when the message was sent to a group'
			: `only the recipient, ${message.to}, can tap it`;
		throw new HttpError(400, 'validation_failed', `"from": ${problem}`, [
			{ field: 'body.from', message: problem },
		]);
	}
	return {
		from,
		text: choice.title,
		...(group ? { groupId: group } : {}),
		reply: { type: choice.type, id: choice.id, title: choice.title, toMessageId: message.id },
	};
}
