/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the sandbox runs in plain Node, never inside n8n */
import type { IncomingMessage } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

import { HttpError } from '../../errors';

/**
 * Fault injection for tests and benchmarks, off by default. Each share is a probability between 0 and 1,
 * drawn once per API request, before the request is processed (so a faulted request never takes effect).
 */
export interface FaultOptions {
	/** Share of requests answered 429 with `Retry-After: 1`. */
	rateLimited?: number;
	/** Share of requests answered 503 with `Retry-After: 1`. */
	unavailable?: number;
	/** Share of requests whose connection is destroyed without an answer. */
	dropped?: number;
	/** Share of requests held back for `delayMs` before they are processed. */
	delayed?: number;
	delayMs?: number;
	/** Injected in tests to make the draws predictable. */
	random?: () => number;
}

export type Fault = { kind: 'none' } | { kind: 'status'; status: 429 | 503 } | { kind: 'drop' };

export class Faults {
	constructor(private options: FaultOptions = {}) {}

	set(options: FaultOptions): void {
		this.options = options;
	}

	/** Delay to apply before processing: the share of delayed requests only. */
	delayFor(): number {
		const { delayed = 0, delayMs = 0 } = this.options;
		return delayed > 0 && delayMs > 0 && this.draw() < delayed ? delayMs : 0;
	}

	pick(): Fault {
		const { rateLimited = 0, unavailable = 0, dropped = 0 } = this.options;
		if (rateLimited + unavailable + dropped <= 0) return { kind: 'none' };
		const roll = this.draw();
		if (roll < rateLimited) return { kind: 'status', status: 429 };
		if (roll < rateLimited + unavailable) return { kind: 'status', status: 503 };
		if (roll < rateLimited + unavailable + dropped) return { kind: 'drop' };
		return { kind: 'none' };
	}

	private draw(): number {
		return (this.options.random ?? Math.random)();
	}
}

/**
 * The pipeline's first step for API requests: the configured latency and a delay drawn from the faults, then
 * an injected fault (a 429/503 answer, or the connection dropped: answers `'dropped'`).
 */
export async function injectFault(
	req: IncomingMessage,
	faults: Faults,
	latencyMs: number,
): Promise<'dropped' | undefined> {
	const delay = latencyMs + faults.delayFor();
	if (delay > 0) await sleep(delay);
	const fault = faults.pick();
	if (fault.kind === 'drop') {
		req.socket.destroy();
		return 'dropped';
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
	return undefined;
}
