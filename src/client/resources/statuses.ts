import { z } from '../zod';

import { operation } from '../operation';
import { Id, ListQuery, named, page, pathParams, Timestamp, text, Url } from '../schemas';
import { MessageMedia } from './message-media';
import { MAX_LENGTH } from './message-sends';

/**
 * Status (stories): what an instance posts for its contacts to see for 24 hours: a text on a background colour,
 * or an image or a video with a caption. Its list says how many contacts viewed each.
 */

/** How long a status lives. */
export const STATUS_LIFETIME_HOURS = 24;
/** How many live statuses an instance keeps. */
export const MAX_STATUSES = 30;
/** The longest text of a text status, as the channel allows it. */
export const MAX_STATUS_TEXT = 700;

export const Status = named(
	'Status',
	z.looseObject({
		id: Id.describe('`st_…`'),
		instanceId: Id,
		type: z.enum(['text', 'image', 'video']),
		text: z.string().nullable().optional().describe('The text of a text status'),
		backgroundColor: z.string().nullable().optional().describe('#rrggbb, behind a text status'),
		caption: z.string().nullable().optional(),
		url: z.string().nullable().optional().describe('Where an image or video by URL came from'),
		media: MessageMedia.nullable().optional().describe('The file of an uploaded image or video'),
		viewCount: z.number().int().min(0).describe('How many contacts viewed it'),
		createdAt: Timestamp.describe('When it was posted (ISO-8601)'),
		expiresAt: Timestamp.describe(`When it goes, ${STATUS_LIFETIME_HOURS} hours after (ISO-8601)`),
	}),
);
export type Status = z.output<typeof Status>;

const BackgroundColor = z
	.string()
	.regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour as #rrggbb')
	.describe('#rrggbb behind the text; a dark green (#128c7e) when omitted');
const Caption = text({ max: MAX_LENGTH.caption }).optional();

export const PostStatus = named(
	'PostStatus',
	z
		.strictObject({
			type: z.enum(['text', 'image', 'video']),
			text: text({ min: 1, max: MAX_STATUS_TEXT })
				.optional()
				.describe('Required for a text status, refused for the others'),
			backgroundColor: BackgroundColor.optional(),
			url: Url.optional().describe('Required for an image or a video status: where to fetch it'),
			caption: Caption.describe('Of an image or a video'),
		})
		.superRefine((body, ctx) => {
			const isText = body.type === 'text';
			const problem = (path: string, message: string) =>
				ctx.addIssue({ code: 'custom', message, path: [path] });
			if (isText && body.text === undefined) problem('text', 'required for a text status');
			if (isText && body.url !== undefined) problem('url', 'only for an image or a video status');
			if (isText && body.caption !== undefined)
				problem('caption', 'only for an image or a video status');
			if (!isText && body.url === undefined) problem('url', `required for an ${body.type} status`);
			if (!isText && body.text !== undefined) problem('text', 'only for a text status (caption)');
			if (!isText && body.backgroundColor !== undefined)
				problem('backgroundColor', 'only for a text status');
		}),
	// Its rules depend on `type`, which a schema's required fields cannot say: a body that passes them.
	{ examples: [{ type: 'text', text: 'Open today until 8 pm', backgroundColor: '#128c7e' }] },
);

/** The form fields beside the `file` part of an uploaded image or video status. */
export const PostStatusUpload = named(
	'PostStatusUpload',
	z.strictObject({ type: z.enum(['image', 'video']), caption: Caption }),
);

const onInstance = pathParams('instanceId');
const LIMITS = `An instance keeps at most ${MAX_STATUSES} live statuses (409 \`status_limit_reached\`); each lives ${STATUS_LIFETIME_HOURS} hours.`;

export const statusOperations = {
	post: operation({
		method: 'POST',
		path: '/instances/{instanceId}/statuses',
		summary: 'Post a status: a text on a background colour, or an image or a video by URL',
		description: LIMITS,
		scope: 'messaging:write',
		params: onInstance,
		body: PostStatus,
		response: Status,
		status: 201,
		creates: true,
	}),
	postUpload: {
		...operation({
			method: 'POST',
			path: '/instances/{instanceId}/statuses/upload',
			summary: 'Post an image or a video status, the file uploaded',
			description: LIMITS,
			scope: 'messaging:write',
			params: onInstance,
			body: PostStatusUpload,
			response: Status,
			status: 201,
			creates: true,
		}),
		upload: true as const,
	},
	list: operation({
		method: 'GET',
		path: '/instances/{instanceId}/statuses',
		summary: "List the instance's own live statuses, the newest first, with how many viewed each",
		scope: 'messaging:read',
		params: onInstance,
		query: ListQuery,
		response: page(Status),
		status: 200,
		paginated: true,
	}),
	delete: operation({
		method: 'DELETE',
		path: '/instances/{instanceId}/statuses/{statusId}',
		summary: 'Delete a status before it expires',
		scope: 'messaging:write',
		params: pathParams('instanceId', 'statusId'),
		status: 204,
	}),
};
