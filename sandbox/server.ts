/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the sandbox runs in plain Node, never inside n8n */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

import { SURFACE_TITLES } from '../src/client/api';
import { buildOpenApiDocument } from '../dev/openapi/document';
import { createConsoleHandler } from './console/api';
import { DEFAULT_SIMULATION, SandboxCore, type SimulationOptions } from './core';
import { DEFAULT_DELIVERY_OPTIONS, type DeliveryOptions, type EventEnvelope } from './deliveries';
import { Faults, type FaultOptions } from './faults';
import { resumeMessages } from './handlers/messages';
import { followLink, RESERVED_CODES } from './handlers/links';
import {
	coerceFields,
	errorBody,
	HttpError,
	parseMultipart,
	queryRecord,
	readBody,
	sendJson,
	validate,
	type ErrorDetail,
	type UploadedFile,
} from './http';
import {
	createWorkspace,
	findKey,
	issueKey,
	revokeKey,
	type IssuedKey,
	type SeededWorkspace,
} from './keys';
import { RateLimiter, type RateLimitOptions } from './rate-limit';
import { API_PREFIX, buildRoutes, matchRoute, type Route } from './routes';
import {
	loadStateFile,
	newId,
	saveStateFile,
	Store,
	type IdempotencyRecord,
	type KeyKind,
	type KeyRecord,
} from './store';

export interface SandboxOptions {
	/** 0 (the default) picks a free port. */
	port?: number;
	host?: string;
	/** Where state is kept across restarts; in memory only when omitted. */
	dataFile?: string;
	/** The base URL to announce (short URLs, invite links) when it differs from the listening address. */
	publicUrl?: string;
	/** Fixed delay added to every API request. */
	latencyMs?: number;
	faults?: FaultOptions;
	/** Per key; `false` turns rate limiting off. Default 600 requests a minute. */
	rateLimit?: RateLimitOptions | false;
	simulation?: Partial<SimulationOptions>;
	/** Webhook delivery: retry base, attempts, timeout, when to disable. */
	webhooks?: Partial<DeliveryOptions>;
	/** JSON bodies; default 1 MiB. */
	maxBodyBytes?: number;
	/** Multipart uploads; default 16 MiB. */
	maxUploadBytes?: number;
	/** The clock, injectable so tests can jump a day ahead. */
	now?: () => number;
	/** Where unexpected errors are reported; default stderr. */
	log?: (message: string) => void;
}

export interface Sandbox {
	baseUrl: string;
	port: number;
	/** The seeded workspace. */
	workspaceId: string;
	/** The seeded workspace's plaintext keys: only when it was created by this start, never after a reload. */
	keys?: Record<KeyKind, string>;
	/** State access for tests and tools. */
	core: SandboxCore;
	store: Store;
	/** Every event emitted since start, oldest first. */
	events: EventEnvelope[];
	createWorkspace(name?: string): SeededWorkspace;
	issueKey(options: {
		workspaceId?: string;
		kind: KeyKind;
		name?: string;
		scopes?: KeyRecord['scopes'];
	}): IssuedKey;
	revokeKey(keyId: string, workspaceId?: string): KeyRecord | undefined;
	setFaults(faults: FaultOptions): void;
	/** Writes the data file now (it is written after every change anyway). */
	save(): void;
	close(): Promise<void>;
}

const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const BACKGROUND_SAVE_DELAY_MS = 100;

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const host = options.host ?? '127.0.0.1';
	const clock = options.now ?? Date.now;
	const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
	const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
	const maxUploadBytes = options.maxUploadBytes ?? 16 * 1024 * 1024;

	const document = options.dataFile ? loadStateFile(options.dataFile) : undefined;
	const store = document ? Store.fromDocument(document) : new Store();

	let saveTimer: NodeJS.Timeout | undefined;
	const save = () => {
		if (saveTimer) clearTimeout(saveTimer);
		saveTimer = undefined;
		if (options.dataFile) {
			pruneIdempotency(store, clock());
			saveStateFile(options.dataFile, store.toDocument(new Date(clock())));
		}
		store.dirty = false;
	};
	// Changes made by timers (status changes, delivery attempts) are saved shortly after, in one write.
	const scheduleSave = () => {
		if (!options.dataFile || saveTimer) return;
		saveTimer = setTimeout(() => {
			saveTimer = undefined;
			save();
		}, BACKGROUND_SAVE_DELAY_MS);
	};

	const core = new SandboxCore(
		store,
		{ ...DEFAULT_SIMULATION, ...withoutUndefined(options.simulation) },
		{ ...DEFAULT_DELIVERY_OPTIONS, ...withoutUndefined(options.webhooks) },
		clock,
		scheduleSave,
		(error) => log(`sandbox: background task failed: ${(error as Error)?.stack ?? String(error)}`),
	);

	let seeded: SeededWorkspace | undefined;
	if (store.all('workspaces').length === 0)
		seeded = createWorkspace(store, 'Sandbox workspace', core.now());
	const workspaceId = seeded?.workspace.id ?? store.all('workspaces')[0].id;
	if (store.dirty) save();

	const routes = buildRoutes();
	const rateLimiter = new RateLimiter(options.rateLimit ?? { limit: 600, windowMs: 60_000 });
	const faults = new Faults(options.faults);
	let openApiText: string | undefined;
	const handleConsole = createConsoleHandler({
		store,
		now: () => core.now(),
		save,
		baseUrl: () => core.baseUrl,
	});

	/** Who is calling: the key record of the Bearer token, or a 401. */
	function authenticate(req: IncomingMessage): KeyRecord {
		const header = req.headers.authorization ?? '';
		const token = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
		const challenge = { 'WWW-Authenticate': 'Bearer' };
		if (!token) {
			throw new HttpError(
				401,
				'unauthorized',
				'Missing API key: send "Authorization: Bearer <API key>"',
				[],
				challenge,
			);
		}
		const key = findKey(store, token);
		if (!key) throw new HttpError(401, 'unauthorized', 'The API key is not valid', [], challenge);
		if (key.revokedAt)
			throw new HttpError(
				401,
				'unauthorized',
				`The API key was revoked at ${key.revokedAt}`,
				[],
				challenge,
			);
		return key;
	}

	function authorize(key: KeyRecord, target: Route): void {
		if (key.kind !== target.surface) {
			throw new HttpError(
				403,
				'wrong_key_kind',
				`This endpoint takes a ${SURFACE_TITLES[target.surface].toLowerCase()}; the key given is a ` +
					`${SURFACE_TITLES[key.kind].toLowerCase()}`,
			);
		}
		if (!key.scopes.includes(target.operation.scope)) {
			throw new HttpError(
				403,
				'insufficient_scope',
				`This endpoint needs the scope ${target.operation.scope}; the key has ${key.scopes.join(', ')}`,
			);
		}
	}

	/** Parses and validates params, query and body with the operation's own schemas. */
	async function readInput(
		req: IncomingMessage,
		url: URL,
		target: Route,
		rawParams: Record<string, string>,
	) {
		const { operation } = target;
		const details: ErrorDetail[] = [];
		const decoded: Record<string, string> = {};
		for (const [name, value] of Object.entries(rawParams))
			decoded[name] = decodeSegment(value, name);
		const params = operation.params ? validate(operation.params, decoded, '', details) : {};
		const rawQuery = queryRecord(url.searchParams);
		const query = operation.query
			? validate(operation.query, coerceFields(operation.query, rawQuery), 'query', details)
			: {};
		if (!operation.query && Object.keys(rawQuery).length > 0) {
			details.push(
				...Object.keys(rawQuery).map((name) => ({
					field: `query.${name}`,
					message: 'unknown query parameter',
				})),
			);
		}

		const raw = await readBody(req, operation.upload ? maxUploadBytes : maxBodyBytes);
		let input: unknown = {};
		let file: UploadedFile | undefined;
		if (operation.upload) {
			const contentType = req.headers['content-type'] ?? '';
			if (!/^multipart\/form-data/i.test(contentType)) {
				throw new HttpError(
					400,
					'invalid_content_type',
					'A media upload is sent as multipart/form-data',
				);
			}
			const multipart = parseMultipart(raw, contentType);
			input = coerceFields(operation.body, multipart.fields);
			file = multipart.files.find((part) => part.fieldName === 'file');
		} else if (raw.length > 0) {
			input = parseJson(raw);
		}
		const body = operation.body ? validate(operation.body, input, 'body', details) : undefined;
		if (details.length > 0) {
			throw new HttpError(
				400,
				'validation_failed',
				`The request is invalid: ${details.map((detail) => `${detail.field}: ${detail.message}`).join('; ')}`,
				details,
			);
		}
		return {
			params: params as Record<string, string>,
			query: (query ?? {}) as Record<string, unknown>,
			body,
			file,
		};
	}

	async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
		if (url.pathname.startsWith(`${API_PREFIX}/`)) {
			const delay = (options.latencyMs ?? 0) + faults.delayFor();
			if (delay > 0) await sleep(delay);
			const fault = faults.pick();
			if (fault.kind === 'drop') {
				req.socket.destroy();
				return;
			}
			if (fault.kind === 'status') {
				throw new HttpError(
					fault.status,
					fault.status === 429 ? 'rate_limited' : 'service_unavailable',
					`Injected fault: HTTP ${fault.status}`,
					[],
					{ 'Retry-After': '1' },
				);
			}
		}
		if (url.pathname === `${API_PREFIX}/openapi.json` && req.method === 'GET') {
			openApiText ??= JSON.stringify(buildOpenApiDocument());
			res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
			res.end(openApiText);
			return;
		}

		const match = matchRoute(routes, req.method ?? 'GET', url.pathname);
		if (!match) throw new HttpError(404, 'not_found', `No endpoint ${req.method} ${url.pathname}`);
		if (!match.route) {
			throw new HttpError(
				405,
				'method_not_allowed',
				`${url.pathname} does not take ${req.method}`,
				[],
				{
					Allow: match.allowedMethods.join(', '),
				},
			);
		}
		const target = match.route;
		const key = authenticate(req);
		authorize(key, target);
		const limit = rateLimiter.take(key.id, clock());
		for (const [name, value] of Object.entries(limit.headers)) res.setHeader(name, value);
		if (!limit.allowed)
			throw new HttpError(
				429,
				'rate_limited',
				'Too many requests for this key; wait for Retry-After',
				[],
				{ 'Retry-After': limit.headers['Retry-After'] },
			);
		key.lastUsedAt = new Date(clock()).toISOString();
		scheduleSave();

		const input = await readInput(req, url, target, match.params);
		const { operation } = target;

		const idempotencyHeader = req.headers['idempotency-key'];
		let idempotency: { key: string; fingerprint: string } | undefined;
		if (operation.creates && typeof idempotencyHeader === 'string') {
			if (idempotencyHeader.length < 1 || idempotencyHeader.length > 255) {
				throw new HttpError(
					400,
					'validation_failed',
					'Idempotency-Key must be 1 to 255 characters',
					[{ field: 'header.Idempotency-Key', message: 'must be 1 to 255 characters' }],
				);
			}
			idempotency = {
				key: `${key.workspaceId}:${key.kind}:${idempotencyHeader}`,
				fingerprint: fingerprint(req.method ?? '', url.pathname, input),
			};
			const previous = store.idempotency.get(idempotency.key);
			if (previous && clock() - previous.createdAtMs < IDEMPOTENCY_TTL_MS) {
				if (previous.fingerprint !== idempotency.fingerprint) {
					throw new HttpError(
						409,
						'idempotency_key_reused',
						'This Idempotency-Key was already used with another request; use a new key for a new request',
					);
				}
				sendJson(res, previous.status, previous.body, { 'Idempotency-Replayed': 'true' });
				return;
			}
		}

		// Handlers are synchronous: from the idempotency lookup above to storing the answer below, nothing
		// else runs, so two concurrent requests with one Idempotency-Key cannot both take effect.
		const returned = target.handle({ core, workspaceId: key.workspaceId, ...input });
		// Only a sandbox-only operation (never one under an Idempotency-Key) answers a promise.
		const result: unknown = returned instanceof Promise ? await returned : returned;
		let body: unknown = undefined;
		if (operation.response && operation.status !== 204) {
			// The sandbox checks its own answers against the contract, so a drift shows at once.
			const checked = operation.response.safeParse(result);
			if (!checked.success) {
				log(`sandbox: ${target.id} answered outside its response schema: ${checked.error.message}`);
				throw new HttpError(
					500,
					'internal_error',
					`The sandbox's answer to ${target.id} broke the contract`,
				);
			}
			body = result;
		}
		// Only successes are remembered: after a 4xx the client may fix the cause and retry with the same key.
		if (idempotency) {
			const record: IdempotencyRecord = {
				...idempotency,
				status: operation.status,
				body,
				createdAtMs: clock(),
			};
			store.idempotency.set(record.key, record);
			store.dirty = true;
		}
		if (store.dirty) save();
		sendJson(res, operation.status, body);
	}

	function handleRedirect(req: IncomingMessage, res: ServerResponse, code: string): void {
		if (req.method !== 'GET' && req.method !== 'HEAD') {
			throw new HttpError(405, 'method_not_allowed', 'A short link is opened with GET', [], {
				Allow: 'GET, HEAD',
			});
		}
		const header = (name: string) => {
			const value = req.headers[name];
			return Array.isArray(value) ? value[0] : value;
		};
		const location = followLink(
			core,
			code,
			{
				userAgent: header('user-agent'),
				referrer: header('referer'),
				country: header('cf-ipcountry'),
			},
			req.method === 'GET',
		);
		if (store.dirty) save();
		res.writeHead(302, { Location: location, 'Cache-Control': 'private, no-store' });
		res.end();
	}

	async function dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
		const path = url.pathname;
		if (path === API_PREFIX || path.startsWith(`${API_PREFIX}/`) || path.startsWith('/sandbox/')) {
			await handleApi(req, res, url);
			return;
		}
		if (path === '/' || path === '/sandbox') {
			sendJson(res, 200, {
				service: 'Multichannel sandbox',
				api: `${core.baseUrl}${API_PREFIX}`,
				openapi: `${core.baseUrl}${API_PREFIX}/openapi.json`,
			});
			return;
		}
		// The web console: its page at `/user/api`, its JSON endpoints below it.
		if (await handleConsole(req, res, url)) return;
		const segments = path.split('/').filter(Boolean);
		if (segments.length === 1 && !RESERVED_CODES.has(segments[0].toLowerCase())) {
			handleRedirect(req, res, decodeSegment(segments[0], 'code'));
			return;
		}
		throw new HttpError(404, 'not_found', `Nothing at ${path}`);
	}

	async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const requestId = newId('req');
		res.setHeader('X-Request-Id', requestId);
		let failure: unknown;
		try {
			await dispatch(req, res);
		} catch (error) {
			failure = error;
		}
		if (failure === undefined) return;
		if (res.headersSent || req.socket.destroyed) {
			res.destroy();
			return;
		}
		let error: HttpError;
		if (failure instanceof HttpError) {
			error = failure;
		} else {
			log(
				`sandbox: ${req.method} ${req.url} failed: ${(failure as Error)?.stack ?? String(failure)}`,
			);
			error = new HttpError(500, 'internal_error', 'The sandbox failed to answer; see its log');
		}
		// A body that was not read to the end (413) would otherwise stall the connection.
		if (error.status === 413) res.setHeader('Connection', 'close');
		sendJson(res, error.status, errorBody(error, requestId), error.headers);
	}

	const server = createServer((req, res) => void handle(req, res));
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, host, () => {
			server.off('error', reject);
			resolve();
		});
	});
	const port = (server.address() as AddressInfo).port;
	const baseUrl = (
		options.publicUrl ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`
	).replace(/\/+$/, '');
	core.baseUrl = baseUrl;

	// Work left unfinished by the previous run carries on.
	resumeMessages(core);
	core.deliveries.resume();

	let closed: Promise<void> | undefined;
	return {
		baseUrl,
		port,
		workspaceId,
		keys: seeded?.keys,
		core,
		store,
		events: core.deliveries.emitted,
		createWorkspace: (name = 'Another workspace') => {
			const created = createWorkspace(store, name, core.now());
			save();
			return created;
		},
		issueKey: ({ workspaceId: target = workspaceId, ...rest }) => {
			const issued = issueKey(store, { workspaceId: target, ...rest, now: core.now() });
			save();
			return issued;
		},
		revokeKey: (keyId, target = workspaceId) => {
			const revoked = revokeKey(store, target, keyId, core.now());
			save();
			return revoked;
		},
		setFaults: (next) => faults.set(next),
		save,
		close: () => {
			closed ??= (async () => {
				core.scheduler.close();
				await core.deliveries.close();
				await new Promise<void>((resolve) => {
					server.close(() => resolve());
					server.closeAllConnections();
				});
				save();
			})();
			return closed;
		},
	};
}

function decodeSegment(value: string, name: string): string {
	try {
		return decodeURIComponent(value);
	} catch {
		return invalidEncoding(name);
	}
}

function invalidEncoding(name: string): never {
	throw new HttpError(400, 'validation_failed', `${name} is not valid percent-encoding`, [
		{ field: name, message: 'invalid percent-encoding' },
	]);
}

function parseJson(raw: Buffer): unknown {
	try {
		return JSON.parse(raw.toString('utf8'));
	} catch {
		return invalidJson();
	}
}

function invalidJson(): never {
	throw new HttpError(400, 'invalid_json', 'The request body is not valid JSON');
}

function fingerprint(
	method: string,
	path: string,
	input: { body: unknown; file?: UploadedFile },
): string {
	const file = input.file ? createHash('sha256').update(input.file.data).digest('hex') : null;
	return createHash('sha256')
		.update(JSON.stringify([method, path, input.body ?? null, file]))
		.digest('hex');
}

/** So that `{ retryBaseMs: undefined }` keeps the default instead of erasing it. */
function withoutUndefined<T extends object>(value: T | undefined): Partial<T> {
	return Object.fromEntries(
		Object.entries(value ?? {}).filter(([, item]) => item !== undefined),
	) as Partial<T>;
}

function pruneIdempotency(store: Store, nowMs: number): void {
	for (const [key, record] of store.idempotency) {
		if (nowMs - record.createdAtMs >= IDEMPOTENCY_TTL_MS) store.idempotency.delete(key);
	}
}
