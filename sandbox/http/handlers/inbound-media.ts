import { z } from 'zod/v4';

import { operation } from '../../../src/client/operation';
import { Message } from '../../../src/client/resources/messages';
import { Id, pathParams, PhoneNumber, text } from '../../../src/client/schemas';
import { requireFile, type ResourceHandlers } from './context';
import { requireInstance } from '../../channel/instance-records';
import { presentMessage } from '../../present';
import { receiveMessage } from '../../channel/phone';
import { SAMPLE_NAMES, sampleFile } from '../../files/samples';
import { GROUP_ID_PATTERN, USERNAME_PATTERN } from '../../../src/client/chat-ids';

/**
 * Sandbox-only endpoints for a contact sending a file (`message.received` with `media`): one of the built-in
 * samples (image, voice note, PDF), or a file of one's own, uploaded. Served beside the other sandbox-only
 * endpoints (sandbox-api.ts).
 */

/** The message of the same chat a contact's message replies to (quotes). */
export const QuotedMessageId = Id.optional().describe(
	'Replies to (quotes) this message of the same chat; the received message carries it in `content.quotedMessageId`',
);

/** Who writes: a number, or `@username` for a person who hides their number (made a contact the first time). */
export const Writer = PhoneNumber.or(
	z.string().regex(USERNAME_PATTERN, 'must be a number in E.164 or a username, like @maria.lopez'),
).describe(
	"The contact's number in E.164, or `@username`: a person who hides their number (the instance makes them a contact, with a `…@lid` chat id, the first time they write; the message's `from` is that contact's id)",
);

const sender = {
	from: Writer,
	caption: text({ max: 1024 }).optional().describe('Text sent with the file'),
	groupId: z
		.string()
		.regex(GROUP_ID_PATTERN, 'must be a group id ending in @g.us')
		.optional()
		.describe('Sent into this group (the instance is in it)'),
	quotedMessageId: QuotedMessageId,
};

export const inboundMediaOperations = {
	inboundSample: operation({
		method: 'POST',
		path: '/sandbox/instances/{instanceId}/inbound/media',
		summary:
			'Sandbox only: a contact sends one of the sample files, an image (PNG), a voice note (Ogg/Opus, type `voice`), a PDF or a sticker (WebP, type `sticker`) (message.received with media)',
		scope: 'messaging:write',
		params: pathParams('instanceId'),
		body: z.strictObject({ ...sender, sample: z.enum(SAMPLE_NAMES).default('image') }),
		response: Message,
		status: 201,
	}),
	inboundUpload: {
		...operation({
			method: 'POST',
			path: '/sandbox/instances/{instanceId}/inbound/media/upload',
			summary:
				'Sandbox only: a contact sends a file of your own, as multipart/form-data with a `file` part (message.received with media)',
			scope: 'messaging:write',
			params: pathParams('instanceId'),
			body: z.strictObject({
				...sender,
				kind: z
					.enum(['voice', 'sticker'])
					.optional()
					.describe(
						'Received as a voice note (the file must be OGG/Opus) or a sticker (WebP); by its media type when absent',
					),
			}),
			response: Message,
			status: 201,
		}),
		upload: true as const,
	},
};

export const inboundMediaHandlers: ResourceHandlers<typeof inboundMediaOperations> = {
	inboundSample: ({ core, workspaceId, params, body }) => {
		const instance = requireInstance(core, workspaceId, params.instanceId);
		const { sample, caption, ...rest } = body;
		const mediaKind = sample === 'voice' || sample === 'sticker' ? sample : undefined;
		return presentMessage(
			receiveMessage(core, instance, {
				...rest,
				text: caption,
				media: sampleFile(sample),
				mediaKind,
			}),
		);
	},
	inboundUpload: ({ core, workspaceId, params, body, file }) => {
		const instance = requireInstance(core, workspaceId, params.instanceId);
		const { data, mimeType, fileName } = requireFile(file);
		const { caption, kind, ...rest } = body;
		const media = { data, mimeType, fileName: fileName || null };
		return presentMessage(
			receiveMessage(core, instance, { ...rest, text: caption, media, mediaKind: kind }),
		);
	},
};
