/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the sandbox runs in plain Node, never inside n8n */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod/v4';

import { decodeSegment, validate } from '../http/request-values';
import { HttpError, validationFailed, type ErrorDetail } from '../errors';
import { sendJson } from '../http/respond';
import { characters } from '../../src/client/schemas';
import {
	API_SCOPES,
	KEY_KINDS,
	KIND_SCOPES,
	MANAGE_KEYS,
	scopeProblems,
	type KeyScope,
} from '../store/key-kinds';
import { issueKey, revokeKey, requireScope } from '../store/keys';
import { authenticateKey } from '../http/pipeline/auth';
import { parseJson, readBody } from '../http/pipeline/body';
import {
	authenticateCounted,
	enforceRateLimit,
	type RateLimiter,
} from '../http/pipeline/rate-limit';
import type { SandboxCore } from '../core';
import type { KeyKind, KeyRecord, Store } from '../store/store';
import { chatView } from './chat';
import { servePage } from './page';
import type { KeyView, SessionView } from './views';

/**
 * The web console at `/user/api`: one HTML page (inline CSS and script, nothing from a CDN) and its JSON
 * endpoints under `/user/api/…`.
 *
 * Sign-in: the console is entered with any active key of a workspace, sent as `Authorization: Bearer <key>`
 * on every console call (the page keeps it in sessionStorage, never in a cookie, so there is nothing for
 * another site to ride on). Listing, generating and revoking keys takes a key with the scope `keys:manage`
 * (the seeded workspace key has it), and reaches only that workspace's keys: another workspace's key id
 * answers 404, exactly like an unknown one. The phone's chat view (chat.ts) takes `messaging:read`. Console
 * calls count against the key's rate limit, as API calls do.
 */

export const CONSOLE_PATH = '/user/api';

const MAX_CONSOLE_BODY_BYTES = 16 * 1024;

export interface ConsoleContext {
	/** For the chat view, which reads what the sandbox's handlers present. */
	core: SandboxCore;
	store: Store;
	now: () => Date;
	/** Persists the state after a change. */
	save: () => void;
	/** The sandbox's public base URL, known once it listens. */
	baseUrl: () => string;
	/** The API's limiter: a key has one budget for both. */
	rateLimiter: RateLimiter;
}

export function keyView(record: KeyRecord): KeyView {
	return {
		id: record.id,
		name: record.name,
		kind: record.kind,
		prefix: record.prefix,
		scopes: [...record.scopes],
		createdAt: record.createdAt,
		lastUsedAt: record.lastUsedAt,
		revokedAt: record.revokedAt,
		status: record.revokedAt ? 'revoked' : 'active',
	};
}

const ALL_SCOPES = [...new Set(KEY_KINDS.flatMap((kind) => KIND_SCOPES[kind]))] as [
	KeyScope,
	...KeyScope[],
];

export const CreateConsoleKey = z
	.object({
		name: z
			.string()
			.trim()
			.check(characters({ min: 1, max: 100 })),
		kind: z.enum(KEY_KINDS as [KeyKind, ...KeyKind[]]),
		/** Omitted: the API scopes of the kind (keys:manage only when asked for). */
		scopes: z.array(z.enum(ALL_SCOPES)).min(1).max(ALL_SCOPES.length).optional(),
	})
	.strict()
	.superRefine((value, context) => {
		for (const [index, message] of scopeProblems(value.kind, value.scopes ?? [])) {
			context.addIssue({ code: 'custom', path: ['scopes', index], message });
		}
	});

/** 403 naming what the signed-in key lacks: a key may grant only scopes it holds itself. */
function requireGrantable(key: KeyRecord, scopes: readonly KeyScope[]): void {
	const lacking = scopes.filter((scope) => !key.scopes.includes(scope));
	if (lacking.length > 0) {
		throw new HttpError(
			403,
			'insufficient_scope',
			`A key may grant only scopes it holds itself; this key lacks ${lacking.join(', ')}`,
			[{ field: 'body.scopes', message: `not held by the signed-in key: ${lacking.join(', ')}` }],
		);
	}
}

/**
 * What keeps a workspace manageable: a key may revoke only keys whose scopes it holds itself (as it may grant
 * only those), and the last active key holding every scope, or the last one with keys:manage, stays. So no key,
 * however narrow, can leave the workspace without a key that can make every other.
 */
function requireRevocable(store: Store, key: KeyRecord, target: KeyRecord): void {
	const lacking = target.scopes.filter((scope) => !key.scopes.includes(scope));
	if (lacking.length > 0) {
		throw new HttpError(
			403,
			'insufficient_scope',
			`A key may revoke only keys whose scopes it holds itself; this key lacks ${lacking.join(', ')}. Revoke it with a key that holds them, such as the workspace's default key`,
		);
	}
	const others = store.all(
		'keys',
		(record) =>
			record.workspaceId === key.workspaceId && !record.revokedAt && record.id !== target.id,
	);
	const holdsAll = (record: KeyRecord, scopes: readonly KeyScope[]) =>
		scopes.every((scope) => record.scopes.includes(scope));
	for (const [scopes, what, loss] of [
		[KIND_SCOPES.workspace, 'every scope', 'no key could grant every scope again'],
		[[MANAGE_KEYS], MANAGE_KEYS, "no one could manage the workspace's keys again"],
	] as const) {
		if (holdsAll(target, scopes) && !others.some((record) => holdsAll(record, scopes))) {
			throw new HttpError(
				409,
				'last_active_key',
				`This is the workspace's last active key with ${what}; create another before revoking it, or ${loss}`,
			);
		}
	}
}

const KeyIdParam = z.string().regex(/^key_[0-9a-f]{16}$/, 'not a key id');

type Handler = (request: {
	req: IncomingMessage;
	res: ServerResponse;
	key: KeyRecord;
	params: string[];
	url: URL;
}) => Promise<void> | void;

interface ConsoleRoute {
	method: string;
	pattern: RegExp;
	/** The scope it needs (`keys:manage` for the keys); the session needs only an active key. */
	scope: KeyScope | null;
	handle: Handler;
}

const NO_STORE = { 'Cache-Control': 'no-store' };

const SIGN_IN =
	'Sign in to the console with one of the workspace\'s API keys: send "Authorization: Bearer <API key>"';

/** Handles everything under `/user/api`; answers `false` for any other path. */
export function createConsoleHandler(context: ConsoleContext) {
	const { store } = context;

	const routes: ConsoleRoute[] = [
		{
			method: 'GET',
			pattern: /^\/session$/,
			scope: null,
			handle: ({ res, key }) => {
				const workspace = store.get('workspaces', key.workspaceId);
				const session: SessionView = {
					workspace: { id: key.workspaceId, name: workspace?.name ?? key.workspaceId },
					key: keyView(key),
					canManageKeys: key.scopes.includes(MANAGE_KEYS),
					kinds: KIND_SCOPES,
				};
				sendJson(res, 200, session, NO_STORE);
			},
		},
		{
			method: 'GET',
			pattern: /^\/keys$/,
			scope: MANAGE_KEYS,
			handle: ({ res, key }) => {
				const data = store
					.all('keys', (record) => record.workspaceId === key.workspaceId)
					.reverse()
					.map(keyView);
				sendJson(res, 200, { data, nextCursor: null }, NO_STORE);
			},
		},
		{
			method: 'POST',
			pattern: /^\/keys$/,
			scope: MANAGE_KEYS,
			handle: async ({ req, res, key }) => {
				const input = await readJson(req);
				const details: ErrorDetail[] = [];
				const body = validate(CreateConsoleKey, input, 'body', details);
				if (!body) throw validationFailed(details);
				const scopes = body.scopes ?? API_SCOPES[body.kind];
				requireGrantable(key, scopes);
				const issued = issueKey(store, {
					workspaceId: key.workspaceId,
					kind: body.kind,
					name: body.name,
					scopes,
					now: context.now(),
				});
				context.save();
				// The only time the key itself leaves the sandbox.
				sendJson(res, 201, { key: keyView(issued.record), secret: issued.key }, NO_STORE);
			},
		},
		{
			method: 'POST',
			pattern: /^\/keys\/([^/]+)\/revoke$/,
			scope: MANAGE_KEYS,
			handle: async ({ req, res, key, params }) => {
				const details: ErrorDetail[] = [];
				const keyId = validate(KeyIdParam, decodeSegment(params[0], 'keyId'), 'keyId', details);
				if (!keyId) throw validationFailed(details);
				const input = await readJson(req);
				if (input !== undefined) {
					validate(z.object({}).strict(), input, 'body', details);
					if (details.length > 0) throw validationFailed(details);
				}
				const target = store.find('keys', key.workspaceId, keyId);
				if (!target) {
					throw new HttpError(404, 'not_found', `Key "${keyId}" was not found in this workspace`);
				}
				if (!target.revokedAt) requireRevocable(store, key, target);
				revokeKey(store, key.workspaceId, keyId, context.now());
				context.save();
				sendJson(res, 200, keyView(target), NO_STORE);
			},
		},
		{
			method: 'GET',
			pattern: /^\/instances\/([^/]+)\/chat$/,
			scope: 'messaging:read',
			handle: ({ res, key, params, url }) => {
				const view = chatView(context.core, key, params[0], url.searchParams);
				sendJson(res, 200, view, NO_STORE);
			},
		},
	];

	return async function handleConsole(
		req: IncomingMessage,
		res: ServerResponse,
		url: URL,
	): Promise<boolean> {
		const path = url.pathname;
		if (path !== CONSOLE_PATH && !path.startsWith(`${CONSOLE_PATH}/`)) return false;
		const rest = path.slice(CONSOLE_PATH.length);
		const method = req.method ?? 'GET';

		if (rest === '' || rest === '/') {
			if (method !== 'GET' && method !== 'HEAD') {
				throw new HttpError(405, 'method_not_allowed', 'The console page is opened with GET', [], {
					Allow: 'GET, HEAD',
				});
			}
			servePage(res, method, context.baseUrl());
			return true;
		}

		const allowed: string[] = [];
		for (const route of routes) {
			const match = route.pattern.exec(rest);
			if (!match) continue;
			if (route.method !== method) {
				allowed.push(route.method);
				continue;
			}
			const key = authenticateCounted(context.rateLimiter, req, context.now().getTime(), () =>
				authenticateKey(store, req, SIGN_IN),
			);
			enforceRateLimit(context.rateLimiter, key, res, context.now().getTime());
			if (route.scope) requireScope(key, route.scope);
			await route.handle({ req, res, key, params: match.slice(1), url });
			return true;
		}
		if (allowed.length > 0) {
			throw new HttpError(405, 'method_not_allowed', `${path} does not take ${method}`, [], {
				Allow: allowed.join(', '),
			});
		}
		throw new HttpError(404, 'not_found', `No console endpoint ${method} ${path}`);
	};
}

async function readJson(req: IncomingMessage): Promise<unknown> {
	const raw = await readBody(req, MAX_CONSOLE_BODY_BYTES);
	if (raw.length === 0) return undefined;
	const contentType = req.headers['content-type'] ?? '';
	if (!/^application\/json\b/i.test(contentType)) {
		throw new HttpError(
			415,
			'unsupported_media_type',
			'Console requests send their body as application/json',
		);
	}
	return parseJson(raw);
}
