import { z } from '../zod';
import { GROUP_ID_PATTERN } from '../chat-ids';
import { PERSON_FORMS_RULE, personForms } from './people';

import {
	DateTimeInput,
	FILE_NAME_MAX_LENGTH,
	FileName,
	Id,
	MimeType,
	named,
	PhoneNumber,
	Timestamp,
	Url,
	text,
} from '../schemas';
import { MAX_MENTIONS, mentionsNotShown } from './mentions';

/**
 * The request bodies of the message sends, the edit and the typing indicator (the operations themselves are in
 * messages.ts).
 */

/**
 * How many entries one message may hold, as a WhatsApp-style channel allows: declared here once, checked by the
 * schemas below, and shown by the nodes (n8n's minRequiredFields and maxAllowedFields, the fields' descriptions).
 * List rows count across all sections together.
 */
export const PER_MESSAGE = {
	contactCards: { min: 1, max: 10 },
	pollOptions: { min: 2, max: 12 },
	replyButtons: { min: 1, max: 3 },
	listSections: { min: 1, max: 10 },
	listRows: { min: 1, max: 10 },
} as const;

/**
 * How long a message's parts may be, in characters (code points), as the channel allows: declared here once,
 * checked by the schemas below, and shown by the nodes' field descriptions.
 */
export const MAX_LENGTH = {
	text: 4096,
	caption: 1024,
	interactiveBody: 1024,
	headerOrFooter: 60,
	buttonTitle: 20,
	rowTitle: 24,
	rowDescription: 72,
	pollQuestion: 255,
	pollOption: 100,
} as const;

/** A list schema holding as many entries as `PER_MESSAGE` allows for it. */
function entries<T extends z.ZodType>(entry: T, { min, max }: { min: number; max: number }) {
	return z.array(entry).min(min).max(max);
}

/** `voice`: played in the chat (OGG/Opus only); `sticker`: a WebP image (voice-sticker.ts); neither has a caption. */
export const MediaType = z.enum(['image', 'video', 'audio', 'document', 'voice', 'sticker']);

/** Recipient: a person (`Person`), or a group id (`…@g.us`) to send into a group. */
export const Recipient = z
	.union([...personForms, z.string().regex(GROUP_ID_PATTERN, 'must be a group id ending in @g.us')])
	.describe(`Who gets it: ${PERSON_FORMS_RULE}; or a group id (\`…@g.us\`)`);
/** How far ahead a send may be scheduled (`sendAt`), in minutes: from one minute to 90 days. */
export const SCHEDULE_WINDOW_MINUTES = { min: 1, max: 90 * 24 * 60 } as const;

/** `sendAt` of every send: the service keeps the message and sends it then. */
const sendAt = DateTimeInput.optional().describe(
	'Send the message at this time instead of now: from 1 minute to 90 days ahead (else 400 `validation_failed` naming `body.sendAt`). The answer is at once, the message in status `scheduled`; it is listed at `GET /instances/{instanceId}/scheduled-messages` and may be cancelled until it goes. At its time it is sent as if sent then (`message.sent` and the rest, then `message.scheduled_sent`); a time missed while the service was down is sent on start, with `late: true`. Not with `answerRegistrationId`',
);

const base = {
	to: Recipient,
	quotedMessageId: Id.optional().describe('Reply to this message'),
	answerRegistrationId: Id.optional().describe(
		'A pending answer registration for this chat (registered with `to`): this message is its question',
	),
	sendAt,
};
/** Text and media sends: URLs in the text or caption become short links that report their clicks. */
const trackLinks = z
	.boolean()
	.optional()
	.describe(
		'Replace each http(s) URL of the text or caption with a short link of its own for this message and recipient; its clicks name both',
	);

/** Text and caption sends: the people the text mentions, each shown in it as `@<number>`. */
export const mentionFields = {
	mentions: z
		.array(PhoneNumber)
		.min(1)
		.max(MAX_MENTIONS)
		.optional()
		.describe(
			'People mentioned (E.164); the text or caption must show each as `@<number>` (`@14155550123`), which is what notifies them; in a group each must be a member, in a chat with one person that person',
		),
	mentionEveryone: z
		.boolean()
		.optional()
		.describe(
			'In a group only: mention every member (each is notified); the text need not name them',
		),
};

/** An issue at `mentions[i]` for each mention the text does not show as `@<number>`. */
export function mentionsShown(
	words: string | undefined,
	mentions: string[] | undefined,
	ctx: z.RefinementCtx,
) {
	const missing = new Set(mentionsNotShown(words ?? '', mentions ?? []));
	(mentions ?? []).forEach((number, index) => {
		if (missing.has(number)) {
			ctx.addIssue({
				code: 'custom',
				message: `is mentioned but the text does not show it as @${number.slice(1)}: add it to the text, where the person's name shows`,
				path: ['mentions', index],
			});
		}
	});
}
export const MENTIONS_RULE =
	'Each of `mentions` must be shown in the text (or caption) as `@<number>`.';

export const SendText = named(
	'SendText',
	z
		.strictObject({
			...base,
			text: text({ min: 1, max: MAX_LENGTH.text }),
			previewUrl: z.boolean().optional().describe('Show a preview of the first link in the text'),
			trackLinks,
			...mentionFields,
		})
		.superRefine((body, ctx) => mentionsShown(body.text, body.mentions, ctx)),
	{ description: MENTIONS_RULE },
);

const mediaFields = {
	mediaType: MediaType,
	caption: text({ max: MAX_LENGTH.caption }).optional(),
	fileName: FileName.optional(),
	trackLinks,
	...mentionFields,
};

/** The caption's mentions are shown in it; a voice note or a sticker has no caption, so neither mentions. */
function mediaRules(
	body: { mediaType: string; caption?: string; mentions?: string[]; mentionEveryone?: boolean },
	ctx: z.RefinementCtx,
) {
	if (body.mediaType === 'voice' || body.mediaType === 'sticker') {
		for (const field of ['caption', 'mentions', 'mentionEveryone'] as const) {
			if (body[field] !== undefined) {
				ctx.addIssue({
					code: 'custom',
					message: `a ${body.mediaType === 'voice' ? 'voice note' : 'sticker'} has no caption, so no ${field}`,
					path: [field],
				});
			}
		}
		return;
	}
	mentionsShown(body.caption, body.mentions, ctx);
}
const MEDIA_RULES = `${MENTIONS_RULE} A \`voice\` (OGG/Opus) or \`sticker\` (WebP) has no caption, mentions or mentionEveryone.`;

export const SendMediaByUrl = named(
	'SendMediaByUrl',
	z
		.strictObject({
			...base,
			...mediaFields,
			url: Url,
			mimeType: MimeType.optional(),
		})
		.superRefine(mediaRules),
	{ description: MEDIA_RULES },
);

/** The `file` part of a multipart media upload: its file name and its Content-Type, which a download answers with. */
export const UploadedFilePart = z.looseObject({
	fileName: text({ max: FILE_NAME_MAX_LENGTH }),
	mimeType: MimeType,
});

/** The form fields beside the `file` part of a multipart media upload. */
export const SendMediaUpload = named(
	'SendMediaUpload',
	z.strictObject({ ...base, ...mediaFields }).superRefine(mediaRules),
	{ description: MEDIA_RULES },
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
	z.strictObject({ ...base, contacts: entries(ContactCard, PER_MESSAGE.contactCards) }),
);

export const SendReaction = named(
	'SendReaction',
	z.strictObject({
		to: Recipient,
		sendAt,
		messageId: Id,
		emoji: text({ max: 16 }).describe('An empty string removes the reaction'),
	}),
);

export const SendPoll = named(
	'SendPoll',
	z.strictObject({
		...base,
		question: text({ min: 1, max: MAX_LENGTH.pollQuestion }),
		options: entries(text({ min: 1, max: MAX_LENGTH.pollOption }), PER_MESSAGE.pollOptions),
		multipleAnswers: z.boolean().optional(),
	}),
);

/**
 * Interactive messages, within the limits a WhatsApp-style channel sets: body text up to 1024 characters,
 * header and footer up to 60; reply buttons (`PER_MESSAGE`) with titles up to 20; a list of sections holding
 * rows (`PER_MESSAGE`, rows counted in all sections together), titles up to 24, row descriptions up to 72. Ids
 * of one message must differ, since the tap names only the id.
 */
const interactive = {
	...base,
	text: text({ min: 1, max: MAX_LENGTH.interactiveBody }).describe('The body of the message'),
	header: text({ min: 1, max: MAX_LENGTH.headerOrFooter })
		.optional()
		.describe('A line of text above the body'),
	footer: text({ min: 1, max: MAX_LENGTH.headerOrFooter })
		.optional()
		.describe('A small line below the body'),
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

export const ReplyButton = z.strictObject({
	id: ChoiceId,
	title: text({ min: 1, max: MAX_LENGTH.buttonTitle }),
});

export const SendButtons = named(
	'SendButtons',
	z.strictObject({
		...interactive,
		buttons: entries(ReplyButton, PER_MESSAGE.replyButtons).superRefine((buttons, ctx) =>
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
	title: text({ min: 1, max: MAX_LENGTH.rowTitle }),
	description: text({ max: MAX_LENGTH.rowDescription }).optional(),
});
export const ListSection = z.strictObject({
	title: text({ min: 1, max: MAX_LENGTH.rowTitle })
		.optional()
		.describe('Required when there is more than one section'),
	rows: entries(ListRow, PER_MESSAGE.listRows),
});

export const SendList = named(
	'SendList',
	z.strictObject({
		...interactive,
		buttonText: text({ min: 1, max: MAX_LENGTH.buttonTitle }).describe(
			'The label of the button that opens the list',
		),
		sections: entries(ListSection, PER_MESSAGE.listSections).superRefine((sections, ctx) => {
			const rows = sections.reduce((total, section) => total + section.rows.length, 0);
			if (rows > PER_MESSAGE.listRows.max) {
				ctx.addIssue({
					code: 'custom',
					message: `at most ${PER_MESSAGE.listRows.max} rows in all sections together (found ${rows})`,
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
		description: `At most ${PER_MESSAGE.listRows.max} rows in all sections together; each section needs a title when there are several; the ids of all rows must differ.`,
		if: { properties: { sections: { minItems: 2 } }, required: ['sections'] },
		then: {
			properties: { sections: { items: { properties: { title: {} }, required: ['title'] } } },
		},
	},
);

export const EditMessage = named(
	'EditMessage',
	z.strictObject({ text: text({ min: 1, max: MAX_LENGTH.text }).describe('The new text') }),
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
