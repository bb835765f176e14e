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
