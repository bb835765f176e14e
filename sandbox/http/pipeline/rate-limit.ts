/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the sandbox runs in plain Node, never inside n8n */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { HttpError } from '../../errors';

/**
 * A fixed window per API key: `limit` requests per `windowMs`. Every authenticated answer carries the
 * contract's headers; past the limit the answer is 429 with `Retry-After`.
 */

export interface RateLimitOptions {
	limit: number;
	windowMs: number;
}

export interface RateLimitDecision {
	allowed: boolean;
	headers: Record<string, string>;
}

/** Requests with a missing or bad key a client address may send a minute before it gets 429. */
const FAILED_SIGN_INS_PER_MINUTE = 60;

export class RateLimiter {
	private readonly windows = new Map<string, { startMs: number; count: number }>();

	constructor(private readonly options: RateLimitOptions | false) {}

	take(keyId: string, nowMs: number): RateLimitDecision {
		if (!this.options) return { allowed: true, headers: {} };
		return this.count(keyId, this.options.limit, this.options.windowMs, nowMs);
	}

	/** A failed sign-in, counted per client address in a budget of its own. */
	takeFailure(address: string, nowMs: number): RateLimitDecision {
		if (!this.options) return { allowed: true, headers: {} };
		return this.count(`failed sign-in from ${address}`, FAILED_SIGN_INS_PER_MINUTE, 60_000, nowMs);
	}

	private count(keyId: string, limit: number, windowMs: number, nowMs: number): RateLimitDecision {
		let window = this.windows.get(keyId);
		if (!window || nowMs - window.startMs >= windowMs) {
			// A window opens with a key's first request after the previous one closed.
			window = { startMs: nowMs, count: 0 };
			this.windows.set(keyId, window);
		}
		const resetMs = window.startMs + windowMs;
		const allowed = window.count < limit;
		if (allowed) window.count++;
		const headers: Record<string, string> = {
			'X-RateLimit-Limit': String(limit),
			'X-RateLimit-Remaining': String(Math.max(0, limit - window.count)),
			'X-RateLimit-Reset': String(Math.ceil(resetMs / 1000)),
		};
		if (!allowed) headers['Retry-After'] = String(Math.max(1, Math.ceil((resetMs - nowMs) / 1000)));
		return { allowed, headers };
	}
}

/**
 * Authenticates, counting each failure (401) against the client's address: past its budget a missing or bad
 * key answers 429 with Retry-After instead. The key is checked first, so a good key is never refused for
 * what another client on the same address (loopback is shared by every local program) sent.
 */
export function authenticateCounted<K>(
	limiter: RateLimiter,
	req: IncomingMessage,
	nowMs: number,
	authenticate: () => K,
): K {
	let failure: unknown;
	try {
		return authenticate();
	} catch (error) {
		failure = error;
	}
	const signInFailed = failure instanceof HttpError && failure.status === 401;
	const decision = signInFailed
		? limiter.takeFailure(req.socket.remoteAddress ?? 'unknown', nowMs)
		: undefined;
	if (decision && !decision.allowed) {
		failure = new HttpError(
			429,
			'rate_limited',
			'Too many requests with a missing or bad API key from this address; wait for Retry-After',
			[],
			{ 'Retry-After': decision.headers['Retry-After'] },
		);
	}
	throw failure;
}

/**
 * Counts the request against its caller's budget (an API key's id; a signed request's webhook): sets the
 * rate-limit headers, and past the limit answers 429.
 */
export function enforceRateLimit(
	limiter: RateLimiter,
	key: { id: string },
	res: ServerResponse,
	nowMs: number,
): void {
	const limit = limiter.take(key.id, nowMs);
	for (const [name, value] of Object.entries(limit.headers)) res.setHeader(name, value);
	if (!limit.allowed) {
		throw new HttpError(
			429,
			'rate_limited',
			'Too many requests for this key; wait for Retry-After',
			[],
			{
				'Retry-After': limit.headers['Retry-After'],
			},
		);
	}
}
