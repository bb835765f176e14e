import {
	MediaType,
	SendButtons,
	SendMediaUpload,
	SendText,
} from '../../src/client/resources/message-sends';
import type { SandboxCore } from '../core';
import { HttpError } from '../errors';
import type { TrackedLinkRecord } from '../store/store';
import { createLink, freeCode } from './short-links';
import { shortUrlOf } from '../present';
import { characterCount } from '../../src/client/schemas';

/**
 * Tracked links (`trackLinks: true` on a text, media or buttons send): each http(s) URL of the text or caption becomes
 * a short link of the sending workspace, tagged with the message id and carrying the message and its
 * recipient, so that its clicks (`link.clicked`) name both. The workspace's short-link key sees these links
 * like any other: the three keys of a workspace share its records, each key kind on its own surface.
 */

/** `http://` or `https://` up to the next space, quote or angle bracket; trailing punctuation is trimmed. */
const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"`]+/gi;
/** Punctuation that ends a sentence rather than a URL. */
const TRAILING = /[.,;:!?'*_~]$/;
const CLOSING: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

/** Where a URL written in running text ends: "(see https://a.example/x)." keeps neither ")" nor ".". */
function trimUrl(candidate: string): string {
	let url = candidate;
	for (;;) {
		const last = url.at(-1) ?? '';
		const opening = CLOSING[last];
		// A closing bracket belongs to the URL when the URL opened it: https://en.wikipedia.org/wiki/Foo_(bar)
		if (opening !== undefined && count(url, opening) < count(url, last)) url = url.slice(0, -1);
		else if (TRAILING.test(last)) url = url.slice(0, -1);
		else return url;
	}
}

function count(text: string, char: string): number {
	return text.split(char).length - 1;
}

function isWebUrl(text: string): boolean {
	try {
		const url = new URL(text);
		return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
	} catch {
		return false;
	}
}

/** Every URL of a text (each occurrence, a URL written twice too), in order, with where it starts. */
export function findUrls(text: string): Array<{ url: string; index: number }> {
	const found: Array<{ url: string; index: number }> = [];
	for (const match of text.matchAll(URL_IN_TEXT)) {
		const url = trimUrl(match[0]);
		if (isWebUrl(url)) found.push({ url, index: match.index });
	}
	return found;
}

/** Where a message of each type keeps the text whose URLs are tracked, and the request field it came from. */
function trackedField(type: string) {
	if (type === 'text') return { name: 'text', path: 'body.text', schema: SendText.shape.text };
	if (type === 'buttons')
		return { name: 'text', path: 'body.text', schema: SendButtons.shape.text };
	if ((MediaType.options as string[]).includes(type)) {
		return {
			name: 'caption',
			path: 'body.caption',
			schema: SendMediaUpload.shape.caption.unwrap(),
		};
	}
	return undefined;
}

/**
 * Replaces the URLs of a message's text (or caption) with new short links of the workspace (one per distinct
 * URL), in its content, and returns them. The text as sent must still fit the request field's limit; when it
 * does not, nothing is created.
 */
export function trackLinks(
	core: SandboxCore,
	workspaceId: string,
	message: { messageId: string; recipient: string },
	type: string,
	content: Record<string, unknown>,
): TrackedLinkRecord[] {
	const field = trackedField(type);
	return field && typeof content[field.name] === 'string'
		? trackField(core, workspaceId, message, content, field)
		: [];
}

function trackField(
	core: SandboxCore,
	workspaceId: string,
	message: { messageId: string; recipient: string },
	content: Record<string, unknown>,
	field: NonNullable<ReturnType<typeof trackedField>>,
): TrackedLinkRecord[] {
	const text = content[field.name] as string;
	const maxLength = field.schema.maxLength ?? Infinity;
	const occurrences = findUrls(text);
	const codes = new Map<string, string>();
	for (const { url } of occurrences) if (!codes.has(url)) codes.set(url, freeCode(core));
	const shortUrl = (code: string) => shortUrlOf(core.baseUrl, code);

	let sent = '';
	let position = 0;
	for (const { url, index } of occurrences) {
		sent += text.slice(position, index) + shortUrl(codes.get(url) as string);
		position = index + url.length;
	}
	sent += text.slice(position);
	const length = characterCount(sent);
	if (length > maxLength) {
		throw new HttpError(
			400,
			'validation_failed',
			`With its links tracked, ${field.path} would be ${length} characters, over the ${maxLength} allowed`,
			[{ field: field.path, message: `too long with tracked links (max ${maxLength})` }],
		);
	}

	const tracked = [...codes].map(([url, code]) => {
		const link = createLink(core, workspaceId, {
			url,
			code,
			title: null,
			tags: [message.messageId],
			expiresAt: null,
			...message,
		});
		return { url, shortUrl: shortUrl(code), linkId: link.id };
	});
	content[field.name] = sent;
	return tracked;
}
