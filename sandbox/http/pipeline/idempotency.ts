/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the sandbox runs in plain Node, never inside n8n */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

import { HttpError } from '../../errors';
import type { Route } from '../routes';
import type { IdempotencyRecord, KeyRecord, Store } from '../../store/store';
import type { RouteInput } from './input';

/**
 * `Idempotency-Key` on creating writes: the first successful answer is stored for 24 h and replayed to the
 * same key with the same request; the same key with another request is a 409.
 */

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** A creating write's Idempotency-Key, scoped to the workspace and key kind, and what its request was. */
export interface IdempotentRequest {
	key: string;
	fingerprint: string;
}

/** The request's Idempotency-Key when its operation creates something; 400 when the header is malformed. */
export function idempotentRequest(
	req: IncomingMessage,
	key: KeyRecord,
	route: Route,
	path: string,
	input: RouteInput,
): IdempotentRequest | undefined {
	const header = req.headers['idempotency-key'];
	if (!route.operation.creates || typeof header !== 'string') return undefined;
	if (header.length < 1 || header.length > 255) {
		throw new HttpError(400, 'validation_failed', 'Idempotency-Key must be 1 to 255 characters', [
			{ field: 'header.Idempotency-Key', message: 'must be 1 to 255 characters' },
		]);
	}
	return {
		key: `${key.workspaceId}:${key.kind}:${header}`,
		fingerprint: fingerprint(req.method ?? '', path, input),
	};
}

/** The stored answer to replay, if this request was already answered; 409 when the key came with another request. */
export function findReplay(
	store: Store,
	request: IdempotentRequest,
	nowMs: number,
): IdempotencyRecord | undefined {
	const previous = store.idempotency.get(request.key);
	if (!previous || nowMs - previous.createdAtMs >= IDEMPOTENCY_TTL_MS) return undefined;
	if (previous.fingerprint !== request.fingerprint) {
		throw new HttpError(
			409,
			'idempotency_key_reused',
			'This Idempotency-Key was already used with another request; use a new key for a new request',
		);
	}
	return previous;
}

/**
 * Stores a success (after a 4xx the client may fix the cause and retry with the same key), and drops the
 * records past their 24 h, so that memory holds one day of records with or without a data file.
 */
export function rememberAnswer(
	store: Store,
	request: IdempotentRequest,
	status: number,
	body: unknown,
	nowMs: number,
): void {
	pruneIdempotency(store, nowMs);
	const record: IdempotencyRecord = { ...request, status, body, createdAtMs: nowMs };
	store.remember(record);
}

/** Drops the records past their 24 h: the oldest first, up to the first one still kept. */
export function pruneIdempotency(store: Store, nowMs: number): void {
	for (const [key, record] of store.idempotency) {
		if (nowMs - record.createdAtMs < IDEMPOTENCY_TTL_MS) return;
		store.forget(key);
	}
}

function fingerprint(method: string, path: string, input: RouteInput): string {
	const file = input.file ? createHash('sha256').update(input.file.data).digest('hex') : null;
	return createHash('sha256')
		.update(JSON.stringify([method, path, input.body ?? null, file]))
		.digest('hex');
}
