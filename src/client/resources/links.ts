import { z } from '../zod';

import { operation } from '../operation';
import {
	DateTimeInput,
	Id,
	ListQuery,
	named,
	page,
	pathParams,
	Timestamp,
	Url,
	text,
} from '../schemas';

export const Link = named(
	'Link',
	z.looseObject({
		id: Id,
		code: z.string().optional(),
		shortUrl: z.string().optional(),
		url: z.string().optional().describe('Destination URL'),
		title: z.string().nullable().optional(),
		tags: z.array(z.string()).optional(),
		expiresAt: Timestamp.nullable().optional(),
		clickCount: z.number().optional(),
		messageId: Id.nullable()
			.optional()
			.describe('The message this link was made for, when a send tracked its links'),
		recipient: z
			.string()
			.nullable()
			.optional()
			.describe('The recipient of that message (phone number or group id)'),
		createdAt: Timestamp.optional(),
		updatedAt: Timestamp.optional(),
	}),
);
export type Link = z.output<typeof Link>;

/** A URL of a sent message that the service replaced with a short link of its own (`trackLinks: true`). */
export const TrackedLink = named(
	'TrackedLink',
	z.looseObject({
		url: z.string().describe('The URL as written in the text or caption'),
		shortUrl: z.string().describe('What the recipient got instead'),
		linkId: Id.optional().describe('The short link, on the short-link surface'),
	}),
);

const Code = z
	.string()
	.regex(/^[A-Za-z0-9_-]{3,64}$/, 'must be 3–64 letters, digits, dashes or underscores');
const Tags = z.array(text({ min: 1, max: 50 })).max(20);
const ExpiresAt = DateTimeInput.describe('ISO-8601 date-time; the link answers 410 after it');

export const CreateLink = named(
	'CreateLink',
	z.strictObject({
		url: Url,
		code: Code.optional().describe('Custom short code; generated when omitted'),
		title: text({ max: 200 }).optional(),
		tags: Tags.optional(),
		expiresAt: ExpiresAt.optional(),
	}),
);

export const UpdateLink = named(
	'UpdateLink',
	z.strictObject({
		url: Url.optional(),
		title: text({ max: 200 }).nullable().optional(),
		tags: Tags.optional(),
		expiresAt: ExpiresAt.nullable().optional(),
	}),
);

export const Click = named(
	'Click',
	z.looseObject({
		id: Id,
		linkId: Id.optional(),
		code: z.string().optional(),
		clickedAt: Timestamp.optional(),
		referrer: z.string().nullable().optional(),
		country: z.string().nullable().optional().describe('ISO 3166-1 alpha-2'),
		device: z.enum(['desktop', 'mobile', 'tablet', 'bot', 'unknown']).or(z.string()).optional(),
		browser: z.string().nullable().optional(),
		bot: z.boolean().optional(),
		userAgent: z.string().nullable().optional(),
		messageId: Id.nullable().optional().describe('For a tracked link: the message it was sent in'),
		recipient: z
			.string()
			.nullable()
			.optional()
			.describe('For a tracked link: who that message was sent to'),
	}),
);
export type Click = z.output<typeof Click>;

export const LinkListQuery = ListQuery.extend({
	tag: z
		.string()
		.optional()
		.describe(
			'Only the links that have this tag among their `tags` (the whole tag, case-sensitive)',
		),
	search: z
		.string()
		.optional()
		.describe('Only the links whose code, destination URL or title contains this text (any case)'),
});
export const ClickListQuery = ListQuery.extend({
	since: DateTimeInput.optional().describe(
		'Only the clicks at or after this time (RFC 3339 with seconds and an offset, e.g. `2026-11-24T10:00:00Z`)',
	),
	includeBots: z
		.boolean()
		.optional()
		.describe(
			"`true`: the clicks by bots (crawlers, link previews, scripts) too; `false` or left out: people's clicks only",
		),
});

const byId = pathParams('linkId');

export const linkOperations = {
	create: operation({
		method: 'POST',
		path: '/links',
		summary: 'Create a short link',
		scope: 'links:write',
		body: CreateLink,
		response: Link,
		status: 201,
		creates: true,
	}),
	list: operation({
		method: 'GET',
		path: '/links',
		summary: 'List short links',
		scope: 'links:read',
		query: LinkListQuery,
		response: page(Link),
		status: 200,
		paginated: true,
	}),
	get: operation({
		method: 'GET',
		path: '/links/{linkId}',
		summary: 'Get a short link',
		scope: 'links:read',
		params: byId,
		response: Link,
		status: 200,
	}),
	update: operation({
		method: 'PATCH',
		path: '/links/{linkId}',
		summary: 'Update a short link',
		scope: 'links:write',
		params: byId,
		body: UpdateLink,
		response: Link,
		status: 200,
	}),
	delete: operation({
		method: 'DELETE',
		path: '/links/{linkId}',
		summary: 'Delete a short link',
		scope: 'links:write',
		params: byId,
		status: 204,
	}),
};

export const clickOperations = {
	list: operation({
		method: 'GET',
		path: '/links/{linkId}/clicks',
		summary: 'List the clicks of a short link, newest first',
		scope: 'links:read',
		params: byId,
		query: ClickListQuery,
		response: page(Click),
		status: 200,
		paginated: true,
	}),
};
