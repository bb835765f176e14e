import { randomInt } from 'crypto';

import type { SandboxCore } from '../core';
import { conflict, HttpError, notFound } from '../errors';
import { presentClick, presentLink } from '../present';
import { newId, type LinkRecord } from '../store/store';
import { readUserAgent } from './user-agent';

/**
 * Short links. Codes share one namespace across workspaces (they are all served at `{baseUrl}/{code}`);
 * the first path segments the sandbox itself uses cannot be codes.
 */

export const RESERVED_CODES = new Set([
	'api',
	'sandbox',
	'user',
	'health',
	'favicon.ico',
	'robots.txt',
]);
const CODE_ALPHABET = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** Stores a new link (a free code when none is given) and emits `link.created`. */
export function createLink(
	core: SandboxCore,
	workspaceId: string,
	fields: Pick<LinkRecord, 'url' | 'title' | 'tags' | 'expiresAt' | 'messageId' | 'recipient'> & {
		code?: string;
	},
): LinkRecord {
	const { code = freeCode(core), ...rest } = fields;
	if (RESERVED_CODES.has(code.toLowerCase()) || findByCode(core, code)) {
		throw conflict(
			'code_taken',
			`The short code "${code}" is already taken; choose another or omit it`,
		);
	}
	const now = core.now().toISOString();
	const link = core.store.insert('links', {
		id: newId('lnk'),
		workspaceId,
		code,
		...rest,
		clickCount: 0,
		createdAt: now,
		updatedAt: now,
	});
	core.emit(workspaceId, 'link.created', presentLink(link, core.baseUrl), { linkId: link.id });
	return link;
}

export function requireLink(core: SandboxCore, workspaceId: string, linkId: string): LinkRecord {
	const link = core.store.find('links', workspaceId, linkId);
	if (!link) throw notFound('Link', linkId);
	return link;
}

function findByCode(core: SandboxCore, code: string): LinkRecord | undefined {
	return core.store.all('links', (link) => link.code === code).at(0);
}

export function freeCode(core: SandboxCore): string {
	for (;;) {
		const code = Array.from(
			{ length: 7 },
			() => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)],
		).join('');
		if (!findByCode(core, code)) return code;
	}
}

export interface Visit {
	userAgent?: string;
	referrer?: string;
	/** The `CF-IPCountry` header, as a CDN in front of the link host would set it. */
	country?: string;
}

/**
 * `GET /{code}`: records the click, emits `link.clicked` and tells where to redirect. `HEAD` (link
 * previews, uptime checks) answers the same without counting as a click.
 */
export function followLink(core: SandboxCore, code: string, visit: Visit, record = true): string {
	const link = findByCode(core, code);
	if (!link) throw new HttpError(404, 'not_found', `No short link has the code "${code}"`);
	const now = core.now();
	if (link.expiresAt && Date.parse(link.expiresAt) <= now.getTime()) {
		throw new HttpError(
			410,
			'link_expired',
			`The short link "${code}" expired at ${link.expiresAt}`,
		);
	}
	if (!record) return link.url;
	const country = visit.country?.trim().toUpperCase();
	const click = core.store.insert('clicks', {
		id: newId('clk'),
		workspaceId: link.workspaceId,
		linkId: link.id,
		code: link.code,
		clickedAt: now.toISOString(),
		referrer: visit.referrer?.trim() || null,
		// XX (unknown) and T1 (Tor) are what Cloudflare sends when it cannot tell.
		country:
			country && /^[A-Z]{2}$/.test(country) && country !== 'XX' && country !== 'T1'
				? country
				: null,
		...readUserAgent(visit.userAgent),
		userAgent: visit.userAgent ?? null,
		...(link.messageId ? { messageId: link.messageId, recipient: link.recipient ?? null } : {}),
	});
	if (!click.bot) link.clickCount++;
	core.emit(
		link.workspaceId,
		'link.clicked',
		{ link: presentLink(link, core.baseUrl), click: presentClick(click) },
		{ linkId: link.id },
	);
	return link.url;
}
