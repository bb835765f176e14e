import { z } from '../zod';

import { operation } from '../operation';
import { MessageMedia } from './message-media';
import {
	DateTimeInput,
	FILE_NAME_MAX_LENGTH,
	FileName,
	Id,
	ListQuery,
	MimeType,
	named,
	page,
	pathParams,
	PhoneNumber,
	Timestamp,
	Url,
	text,
} from '../schemas';
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
	'buttons',
	'list',
	'reply',
]);
export const MediaType = z.enum(['image', 'video', 'audio', 'document']);

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
		answeredQuestion: z
			.looseObject({
				registrationId: Id.describe('The answer registration that took it'),
				messageId: Id.describe('The question: the message that registration waited on'),
			})
			.optional()
			.describe(
				'On a received message that an answer registration (Send and Wait) took as its answer: it was delivered to that registration, so other receivers may leave it alone. Set before the message is delivered to webhooks',
			),
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
		text: text({ min: 1, max: 4096 }),
		previewUrl: z.boolean().optional().describe('Show a preview of the first link in the text'),
		trackLinks,
	}),
);

const mediaFields = {
	mediaType: MediaType,
	caption: text({ max: 1024 }).optional(),
	fileName: FileName.optional(),
	trackLinks,
};

export const SendMediaByUrl = named(
	'SendMediaByUrl',
	z.strictObject({
		...base,
		...mediaFields,
		url: Url,
		mimeType: MimeType.optional(),
	}),
);

/** The `file` part of a multipart media upload: its file name and its Content-Type, which a download answers with. */
export const UploadedFilePart = z.looseObject({
	fileName: text({ max: FILE_NAME_MAX_LENGTH }),
	mimeType: MimeType,
});

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
		name: text({ max: 200 }).optional(),
		address: text({ max: 500 }).optional(),
	}),
);

export const ContactCard = z.strictObject({
	name: text({ min: 1, max: 200 }),
	phoneNumbers: z.array(PhoneNumber).min(1),
	organization: text({ max: 200 }).optional(),
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
		emoji: text({ max: 16 }).describe('An empty string removes the reaction'),
	}),
);

export const SendPoll = named(
	'SendPoll',
	z.strictObject({
		...base,
		question: text({ min: 1, max: 255 }),
		options: z
			.array(text({ min: 1, max: 100 }))
			.min(2)
			.max(12),
		multipleAnswers: z.boolean().optional(),
	}),
);

/**
 * Interactive messages, within the limits a WhatsApp-style channel sets: body text up to 1024 characters,
 * header and footer up to 60; 1–3 reply buttons with titles up to 20; a list of up to 10 sections holding
 * at most 10 rows in all, titles up to 24, row descriptions up to 72. Ids of one message must differ, since
 * the tap names only the id.
 */
const interactive = {
	...base,
	text: text({ min: 1, max: 1024 }).describe('The body of the message'),
	header: text({ min: 1, max: 60 }).optional().describe('A line of text above the body'),
	footer: text({ min: 1, max: 60 }).optional().describe('A small line below the body'),
};
const ChoiceId = Id.describe('Comes back as `reply.id` when the contact taps it');

/** An issue for every id used more than once, at each repetition's path. */
function uniqueIds(ids: Array<{ id: string; path: Array<string | number> }>, ctx: z.RefinementCtx) {
	const seen = new Set<string>();
	for (const { id, path } of ids) {
		if (seen.has(id)) ctx.addIssue({ code: 'custom', message: `id "${id}" is used twice`, path });
		seen.add(id);
	}
}

export const ReplyButton = z.strictObject({ id: ChoiceId, title: text({ min: 1, max: 20 }) });

export const SendButtons = named(
	'SendButtons',
	z.strictObject({
		...interactive,
		buttons: z
			.array(ReplyButton)
			.min(1)
			.max(3)
			.superRefine((buttons, ctx) =>
				uniqueIds(
					buttons.map((button, index) => ({ id: button.id, path: [index, 'id'] })),
					ctx,
				),
			),
		trackLinks,
	}),
	{ description: 'The ids of the buttons must differ.' },
);

export const ListRow = z.strictObject({
	id: ChoiceId,
	title: text({ min: 1, max: 24 }),
	description: text({ max: 72 }).optional(),
});
export const ListSection = z.strictObject({
	title: text({ min: 1, max: 24 })
		.optional()
		.describe('Required when there is more than one section'),
	rows: z.array(ListRow).min(1).max(10),
});
export const MAX_LIST_ROWS = 10;

export const SendList = named(
	'SendList',
	z.strictObject({
		...interactive,
		buttonText: text({ min: 1, max: 20 }).describe('The label of the button that opens the list'),
		sections: z
			.array(ListSection)
			.min(1)
			.max(10)
			.superRefine((sections, ctx) => {
				const rows = sections.reduce((total, section) => total + section.rows.length, 0);
				if (rows > MAX_LIST_ROWS) {
					ctx.addIssue({
						code: 'custom',
						message: `at most ${MAX_LIST_ROWS} rows in all sections together (found ${rows})`,
					});
				}
				sections.forEach((section, index) => {
					if (sections.length > 1 && section.title === undefined) {
						ctx.addIssue({
							code: 'custom',
							message: 'each section needs a title when there are several',
							path: [index, 'title'],
						});
					}
				});
				uniqueIds(
					sections.flatMap((section, index) =>
						section.rows.map((row, rowIndex) => ({
							id: row.id,
							path: [index, 'rows', rowIndex, 'id'],
						})),
					),
					ctx,
				);
			}),
	}),
	// The document says what it can of the rules above: a title on each section when there are several; the
	// total of rows and the ids that must differ are in the description.
	{
		description: `At most ${MAX_LIST_ROWS} rows in all sections together; each section needs a title when there are several; the ids of all rows must differ.`,
		if: { properties: { sections: { minItems: 2 } }, required: ['sections'] },
		then: {
			properties: { sections: { items: { properties: { title: {} }, required: ['title'] } } },
		},
	},
);

export const EditMessage = named(
	'EditMessage',
	z.strictObject({ text: text({ min: 1, max: 4096 }).describe('The new text') }),
);

/** How long a typing indicator may show: a channel clears it by itself after about 25 s. */
export const MAX_TYPING_SECONDS = 25;
export const TypingState = z.enum(['composing', 'recording']);

export const SendTyping = named(
	'SendTyping',
	z.strictObject({
		to: Recipient,
		state: TypingState.default('composing').describe(
			'`composing` shows "typing…", `recording` "recording audio…"',
		),
		seconds: z.number().int().min(1).max(MAX_TYPING_SECONDS).default(5),
	}),
);

export const Typing = named(
	'Typing',
	z.looseObject({
		instanceId: Id,
		chatId: z.string(),
		to: z.string(),
		state: TypingState.or(z.string()),
		until: Timestamp.describe('When the indicator stops showing'),
	}),
);

export const MessageListQuery = ListQuery.extend({
	chatId: Id.optional().describe('Only the messages of this chat (see the chats of an instance)'),
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
