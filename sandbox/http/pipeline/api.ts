/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the sandbox runs in plain Node, never inside n8n */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { buildOpenApiDocument } from '../../../src/openapi/document';
import type { SandboxCore } from '../../core';
import { sendFile, sendJson, sendJsonText } from '../respond';
import type { KeyScope } from '../../store/key-kinds';
import type { MediaFile } from '../../files/media';
import type { Persistence } from '../../store/persistence';
import { API_PREFIX, routeFor, type Route } from '../routes';
import { authenticateKey, authorizeRoute } from './auth';
import { injectFault, type Faults } from './faults';
import { findReplay, idempotentRequest, rememberAnswer } from './idempotency';
import { readInput, readRouteBody, type BodyLimits, type RouteInput } from './input';
import { authenticateCounted, enforceRateLimit, type RateLimiter } from './rate-limit';
import { checkedAnswer } from './response';
import { authenticateSigned } from './signed';

export interface ApiDependencies {
	core: SandboxCore;
	routes: Route[];
	persistence: Persistence;
	rateLimiter: RateLimiter;
	faults: Faults;
	/** Fixed delay added to every API request. */
	latencyMs: number;
	limits: BodyLimits;
	log: (message: string) => void;
}

/**
 * The API (`/api/v1/…` and the sandbox-only `/sandbox/…`), one step after another: injected faults, the
 * route, who calls and whether they may, the rate limit, the validated input, an idempotent replay, the
 * handler, its answer checked against the contract, then the state saved.
 */
export function createApiHandler(deps: ApiDependencies) {
	const { core, persistence } = deps;
	const { store } = core;
	let openApiText: string | undefined;

	return async function handleApi(
		req: IncomingMessage,
		res: ServerResponse,
		url: URL,
	): Promise<void> {
		if (url.pathname.startsWith(`${API_PREFIX}/`)) {
			if ((await injectFault(req, deps.faults, deps.latencyMs)) === 'dropped') return;
		}
		if (url.pathname === `${API_PREFIX}/openapi.json` && req.method === 'GET') {
			openApiText ??= JSON.stringify(buildOpenApiDocument());
			res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
			res.end(openApiText);
			return;
		}

		const method = req.method ?? 'GET';
		const { route, params } = routeFor(deps.routes, method, url.pathname);
		if (route.operation.signed) {
			await handleSigned(req, res, url, route, params);
			return;
		}
		const key = authenticateCounted(deps.rateLimiter, req, core.now().getTime(), () =>
			authenticateKey(store, req),
		);
		authorizeRoute(key, route);
		enforceRateLimit(deps.rateLimiter, key, res, core.now().getTime());
		key.lastUsedAt = core.now().toISOString();
		persistence.saveSoon();

		const input = await readInput(req, url, route, params, deps.limits);
		const idempotent = idempotentRequest(req, key, route, url.pathname, input);
		if (idempotent) {
			const replay = findReplay(store, idempotent, core.now().getTime());
			if (replay) {
				sendJson(res, replay.status, replay.body, { 'Idempotency-Replayed': 'true' });
				return;
			}
		}

		// Handlers are synchronous: from the idempotency lookup above to storing the answer below, nothing
		// else runs, so two concurrent requests with one Idempotency-Key cannot both take effect.
		await handleAndSave(
			res,
			route,
			{ workspaceId: key.workspaceId, scopes: key.scopes },
			input,
			(body, status) => {
				if (idempotent) rememberAnswer(store, idempotent, status, body, core.now().getTime());
			},
		);
	};

	/**
	 * Runs the handler and saves what it changed before answering. What changed before this request (its key's
	 * lastUsedAt, timers) is saved on its own first, so that a failure of this request (a handler error, an answer
	 * that cannot be serialised or saved) undoes only what the request did, and leaves nothing behind.
	 */
	async function handleAndSave(
		res: ServerResponse,
		route: Route,
		caller: { workspaceId: string; scopes: readonly KeyScope[] },
		input: RouteInput,
		beforeSave: (body: unknown, status: number) => void = () => {},
	): Promise<void> {
		persistence.saveInBackground();
		let text: string | undefined;
		let body: unknown;
		let done = false;
		let status: number = route.operation.status;
		try {
			const returned = route.handle({ core, ...caller, ...input });
			// Only a sandbox-only operation (never one under an Idempotency-Key) answers a promise.
			const result: unknown = returned instanceof Promise ? await returned : returned;
			body = checkedAnswer(route, result, deps.log);
			// Serialised before the save: an answer that cannot be sent is a failure that leaves nothing behind.
			if (!route.operation.binary) text = JSON.stringify(body);
			status = answerStatus(route, body);
			beforeSave(body, status);
			persistence.saveIfChanged();
			done = true;
		} finally {
			if (!done) persistence.discard();
		}
		if (route.operation.binary) sendFile(res, status, body as MediaFile);
		else sendJsonText(res, status, text);
	}

	/**
	 * An operation authenticated by a signature instead of a key: the body is read first, since the signature
	 * covers it. No Idempotency-Key: a signature is taken once, so a repeat is refused, never replayed.
	 */
	async function handleSigned(
		req: IncomingMessage,
		res: ServerResponse,
		url: URL,
		route: Route,
		params: Record<string, string>,
	): Promise<void> {
		const raw = await readRouteBody(req, route, deps.limits);
		// A bad signature counts against the client's address like a bad key: guessing is rate limited too.
		const caller = authenticateCounted(deps.rateLimiter, req, core.now().getTime(), () =>
			authenticateSigned(core, route, params, req, url, raw),
		);
		enforceRateLimit(deps.rateLimiter, caller, res, core.now().getTime());
		const input = await readInput(req, url, route, params, deps.limits, raw);
		caller.take();
		await handleAndSave(res, route, { workspaceId: caller.workspaceId, scopes: [] }, input);
	}
}

/** The operation's status, or its `foundStatus` when the answer says it found what it would have made. */
function answerStatus(route: Route, body: unknown): number {
	const { foundStatus, status } = route.operation;
	const created = (body as { created?: unknown } | undefined)?.created;
	return foundStatus !== undefined && created === false ? foundStatus : status;
}
