import { z } from 'zod/v4';

import { operation } from '../operation';
import { MessageMedia } from './media';
import { Id, ListQuery, named, page, pathParams, PhoneNumber, Timestamp, Url } from '../schemas';
import { TrackedLink } from './links';

export const MessageStatus = z.enum(['pending', 'sent', 'delivered', 'read', 'failed']);
export const MessageType = z.enum([
	'text',
	'image',
	'video',
	'audio',
	'document',
	'location',
	'contact',
	'reaction',
	'poll',
]);
export const MediaType = z.enum(['image', 'video', 'audio', 'document']);

export const Message = named(
	'Message',
	z.looseObject({
		id: Id,
		instanceId: Id.optional(),
		chatId: z.string().optional(),
		direction: z.enum(['outbound', 'inbound']).or(z.string()).optional(),
		from: z.string().nullable().optional(),
		to: z.string().nullable().optional(),
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
	}),
);
export type Message = z.output<typeof Message>;

/** Recipient: a phone number, or a group id (`…@g.us`) to send into a group. */
const Recipient = z.union([
	PhoneNumber,
	z.string().regex(/^[\w.-]+@g\.us$/, 'must be a group id ending in @g.us'),
]);
const base = {
	to: Recipient,
	quotedMessageId: Id.optional().describe('Reply to this message'),
};
/** Text and media sends: URLs in the text or caption become short links that report their clicks. */
const trackLinks = z
	.boolean()
	.optional()
	.describe(
		'Replace each http(s) URL of the text or caption with a short link of its own for this message and recipient; its clicks name both',
	);

export const SendText = named(
	'SendText',
	z.strictObject({
		...base,
		text: z.string().min(1).max(4096),
		previewUrl: z.boolean().optional().describe('Show a preview of the first link in the text'),
		trackLinks,
	}),
);

const mediaFields = {
	mediaType: MediaType,
	caption: z.string().max(1024).optional(),
	fileName: z.string().min(1).max(255).optional(),
	trackLinks,
};

export const SendMediaByUrl = named(
	'SendMediaByUrl',
	z.strictObject({
		...base,
		...mediaFields,
		url: Url,
		mimeType: z.string().optional(),
	}),
);

/** The form fields beside the `file` part of a multipart media upload. */
export const SendMediaUpload = named(
	'SendMediaUpload',
	z.strictObject({ ...base, ...mediaFields }),
);

export const SendLocation = named(
	'SendLocation',
	z.strictObject({
		...base,
		latitude: z.number().min(-90).max(90),
		longitude: z.number().min(-180).max(180),
		name: z.string().max(200).optional(),
		address: z.string().max(500).optional(),
	}),
);

export const ContactCard = z.strictObject({
	name: z.string().min(1).max(200),
	phoneNumbers: z.array(PhoneNumber).min(1),
	organization: z.string().max(200).optional(),
	email: z.email().optional(),
});

export const SendContactCard = named(
	'SendContactCard',
	z.strictObject({ ...base, contacts: z.array(ContactCard).min(1).max(10) }),
);

export const SendReaction = named(
	'SendReaction',
	z.strictObject({
		to: Recipient,
		messageId: Id,
		emoji: z.string().max(16).describe('An empty string removes the reaction'),
	}),
);

export const SendPoll = named(
	'SendPoll',
	z.strictObject({
		...base,
		question: z.string().min(1).max(255),
		options: z.array(z.string().min(1).max(100)).min(2).max(12),
		multipleAnswers: z.boolean().optional(),
	}),
);

export const MessageListQuery = ListQuery.extend({
	chatId: z.string().optional(),
	direction: z.enum(['outbound', 'inbound']).optional(),
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
	list: operation({
		method: 'GET',
		path: '/instances/{instanceId}/messages',
		summary: 'List messages of an instance, newest first',
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
		scope: 'messaging:read',
		params: byId,
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
};
