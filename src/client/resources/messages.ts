import { z } from '../zod';

import { operation } from '../operation';
import { MessageMedia } from './message-media';
import {
	SendText,
	SendMediaByUrl,
	SendMediaUpload,
	SendLocation,
	SendContactCard,
	SendReaction,
	SendPoll,
	SendButtons,
	SendList,
	EditMessage,
	MAX_TYPING_SECONDS,
	SendTyping,
	Typing,
} from './message-sends';
import { DateTimeInput, Id, ListQuery, named, page, pathParams, Timestamp } from '../schemas';
import { TrackedLink } from './links';

export const MessageStatus = z.enum([
	'pending',
	'scheduled',
	'cancelled',
	'sent',
	'delivered',
	'read',
	'failed',
]);
export const MessageType = z.enum([
	'text',
	'image',
	'video',
	'audio',
	'document',
	'voice',
	'sticker',
	'location',
	'contact',
	'reaction',
	'poll',
	'buttons',
	'list',
	'reply',
]);

/** A tap on a reply button or a list row of an interactive message, as it comes back in a received message. */
export const MessageReply = named(
	'MessageReply',
	z.looseObject({
		type: z.enum(['button', 'list']).or(z.string()),
		id: z.string().describe('The id of the button or row, as it was sent'),
		title: z.string().describe('Its title, as the contact saw it'),
		toMessageId: z.string().describe('The interactive message that offered it'),
	}),
);
export type MessageReply = z.output<typeof MessageReply>;

/** What a received message answered: the registration that took it (or refused it) and its question. */
const AnsweredQuestion = named(
	'AnsweredQuestion',
	z.looseObject({
		registrationId: Id.describe('The answer registration that took it'),
		messageId: Id.describe('The question: the message that registration waited on'),
		refused: z
			.boolean()
			.optional()
			.describe(
				"`true`: it would have answered, but its sender is not in the registration's `allowedToAnswer`; the registration keeps waiting",
			),
	}),
);

export const Message = named(
	'Message',
	z.looseObject({
		id: Id,
		instanceId: Id.optional(),
		chatId: z.string().optional(),
		direction: z.enum(['outbound', 'inbound']).or(z.string()).optional(),
		from: z
			.string()
			.nullable()
			.optional()
			.describe(
				"Who sent it: the instance's number on a sent message; on a received one the sender's number in E.164, or their contact id (`ct_…`) when they hide their number",
			),
		to: z
			.string()
			.nullable()
			.optional()
			.describe(
				"Who it went to: the recipient's number, a group id, or the contact id (`ct_…`) of a person who hides their number, as a received message names them in `from` (its `chatId` is their `…@lid`); the instance's number on a received message",
			),
		phone: z
			.string()
			.optional()
			.describe(
				"On a received message: the sender's number in E.164 when they show it; absent when they hide it",
			),
		username: z
			.string()
			.optional()
			.describe(
				"On a received message: the sender's username (without `@`) when they have one; `@<username>` names them in a send's `to`",
			),
		type: MessageType.or(z.string()).optional(),
		status: MessageStatus.or(z.string()).optional(),
		media: MessageMedia.nullable().optional().describe('The file of a media message'),
		content: z.record(z.string(), z.unknown()).optional(),
		error: z.looseObject({ code: z.string(), message: z.string() }).nullable().optional(),
		trackedLinks: z
			.array(TrackedLink)
			.optional()
			.describe('Sent with `trackLinks: true`: each URL of the text or caption and its short link'),
		createdAt: Timestamp.optional(),
		updatedAt: Timestamp.optional(),
		reply: MessageReply.nullable()
			.optional()
			.describe('On a received message: the button or list row the contact tapped'),
		editedAt: Timestamp.nullable().optional().describe('When the text was last edited'),
		deletedAt: Timestamp.optional().describe(
			'Deleted for everyone by the contact who sent it: when (its content is gone; `message.deleted` carried it)',
		),
		sendAt: Timestamp.optional().describe(
			'A scheduled send (`sendAt` of the send): the time it was asked to go',
		),
		sentAt: Timestamp.optional().describe('A scheduled send that went: when it was sent'),
		late: z
			.boolean()
			.optional()
			.describe(
				'A scheduled send whose time passed while the service was down: `true`, sent as soon as it was back',
			),
		cancelledAt: Timestamp.optional().describe('A cancelled scheduled send: when it was cancelled'),
		mentions: z
			.array(z.string())
			.optional()
			.describe(
				'The numbers (E.164) its text or caption mentions, each shown in it as `@<number>`',
			),
		mentionEveryone: z
			.boolean()
			.optional()
			.describe('In a group: whether it mentions every member'),
		mentionsMe: z
			.boolean()
			.optional()
			.describe(
				"On a received message: whether it mentions the instance's own number (or, in a group, everyone)",
			),
		answeredQuestion: AnsweredQuestion.optional().describe(
			'On a received message that an answer registration (Send and Wait) took as its answer: it was delivered to that registration, so other receivers may leave it alone (and so with `refused: true`, an answer from someone not allowed to give it). Set before the message is delivered to webhooks',
		),
		handedOver: z
			.literal(true)
			.optional()
			.describe(
				'On a message event: its chat is handed over to a person (chats `hand-over`), so an automation may leave it alone',
			),
		fromBusinessPhone: z
			.literal(true)
			.optional()
			.describe(
				"Sent from the business's own phone rather than through the API (it hands the chat over)",
			),
	}),
);
export type Message = z.output<typeof Message>;

export const MessageListQuery = ListQuery.extend({
	chatId: Id.optional().describe(
		'Only the messages of this chat (see the chats of an instance): its chat id, or a person by their number in E.164, contact id or `@username` (an unknown contact is 404 `contact_not_found`)',
	),
	direction: z
		.enum(['outbound', 'inbound'])
		.optional()
		.describe('Only sent (`outbound`) or only received (`inbound`) messages; both when absent'),
	since: DateTimeInput.optional().describe('Only messages created at or after this time'),
	until: DateTimeInput.optional().describe(
		'Only messages created before this time; when `since` is given too, it must be later',
	),
	order: z
		.enum(['newest', 'oldest'])
		.optional()
		.describe('`newest` first (the default) or `oldest` first'),
}).superRefine((query, ctx) => {
	if (query.since && query.until && Date.parse(query.until) <= Date.parse(query.since)) {
		ctx.addIssue({ code: 'custom', message: 'must be later than since', path: ['until'] });
	}
});

const onInstance = pathParams('instanceId');
const byId = pathParams('instanceId', 'messageId');

function send<B extends z.ZodType>(kind: string, body: B) {
	return operation({
		method: 'POST',
		path: `/instances/{instanceId}/messages/${kind}`,
		summary: `Send a ${kind.replace('/', ' ')} message`,
		scope: 'messaging:write',
		params: onInstance,
		body,
		response: Message,
		status: 201,
		creates: true,
	});
}

export const messageOperations = {
	sendText: send('text', SendText),
	sendMedia: send('media', SendMediaByUrl),
	sendMediaUpload: { ...send('media/upload', SendMediaUpload), upload: true as const },
	sendLocation: send('location', SendLocation),
	sendContactCard: send('contact', SendContactCard),
	sendReaction: send('reaction', SendReaction),
	sendPoll: send('poll', SendPoll),
	sendButtons: send('buttons', SendButtons),
	sendList: send('list', SendList),
	sendTyping: operation({
		method: 'POST',
		path: '/instances/{instanceId}/typing',
		summary: `Show a typing (or recording) indicator in a chat for up to ${MAX_TYPING_SECONDS} seconds`,
		scope: 'messaging:write',
		params: onInstance,
		body: SendTyping,
		response: Typing,
		status: 200,
	}),
	list: operation({
		method: 'GET',
		path: '/instances/{instanceId}/messages',
		summary: 'List messages of an instance (or of one of its chats), newest or oldest first',
		description:
			'The messages of one chat are those with its `chatId` (the chats of an instance are listed at `GET /instances/{instanceId}/chats`). `direction` keeps only sent (`outbound`) or received (`inbound`) ones; `since` keeps those created at or after a time and `until` those created before one, which must be later than `since` (else 400 `validation_failed` naming `query.until`); `order` is `newest` first (the default) or `oldest` first.',
		scope: 'messaging:read',
		params: onInstance,
		query: MessageListQuery,
		response: page(Message),
		status: 200,
		paginated: true,
	}),
	get: operation({
		method: 'GET',
		path: '/instances/{instanceId}/messages/{messageId}',
		summary: 'Get a message and its status',
		description:
			'A scheduled send (sent with `sendAt`) is a message from the start: before its time it answers in status `scheduled` (or `cancelled`), with its `sendAt`; once it went, as the message sent.',
		scope: 'messaging:read',
		params: byId,
		response: Message,
		status: 200,
	}),
	edit: operation({
		method: 'PATCH',
		path: '/instances/{instanceId}/messages/{messageId}',
		summary: 'Edit the text of a sent text message (message.edited)',
		scope: 'messaging:write',
		params: byId,
		body: EditMessage,
		response: Message,
		status: 200,
	}),
	markRead: operation({
		method: 'POST',
		path: '/instances/{instanceId}/messages/{messageId}/read',
		summary: 'Mark an inbound message as read',
		scope: 'messaging:write',
		params: byId,
		response: Message,
		status: 200,
	}),
	delete: operation({
		method: 'DELETE',
		path: '/instances/{instanceId}/messages/{messageId}',
		summary: 'Delete a message (for everyone when the channel still allows it)',
		scope: 'messaging:write',
		params: byId,
		status: 204,
	}),
	downloadMedia: operation({
		method: 'GET',
		path: '/messages/{messageId}/media',
		summary:
			'Download the file of a media message (sent or received): its bytes, with Content-Type, Content-Disposition and Content-Length; 404 when the message has none, 410 when the service no longer keeps them',
		scope: 'messaging:read',
		params: pathParams('messageId'),
		binary: true,
		status: 200,
	}),
	downloadSignedMedia: operation({
		method: 'GET',
		path: '/signed-media/{token}',
		summary:
			'Download the file of a received message without an API key, at the short-lived URL its delivered event carries (`media.downloadUrl`)',
		description:
			'The URL is signed by the service for one message and answers like `downloadMedia` until it expires (15 minutes after the delivery attempt that carried it). A URL that was not made by the service, or was changed, is a 401 `invalid_signature`; one past its time a 401 `url_expired`: download with a key instead.',
		scope: 'messaging:read',
		signed: 'url',
		params: z.strictObject({
			token: Id.describe(
				'The last path segment of `media.downloadUrl`, as the event carried it (1–200 characters)',
			),
		}),
		binary: true,
		status: 200,
	}),
};
