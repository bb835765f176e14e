/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the sandbox runs in plain Node, never inside n8n */
import type { ServerResponse } from 'node:http';

import { HttpError } from '../http';

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

export class RateLimiter {
	private readonly windows = new Map<string, { startMs: number; count: number }>();

	constructor(private readonly options: RateLimitOptions | false) {}

	take(keyId: string, nowMs: number): RateLimitDecision {
		if (!this.options) return { allowed: true, headers: {} };
		const { limit, windowMs } = this.options;
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
