/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the sandbox runs in plain Node, never inside n8n */

/**
 * How long one delivery attempt waits for its answer: a signal that aborts the request when the time is up, moved
 * once the receiver claimed the event (it is at work: DeliveryOptions.claimedTimeoutMs).
 */
export class AttemptDeadline {
	private readonly controller = new AbortController();
	private timer: ReturnType<typeof setTimeout>;

	constructor(public waitMs: number) {
		this.timer = setTimeout(() => this.controller.abort(), waitMs);
	}

	get signal(): AbortSignal {
		return this.controller.signal;
	}

	get passed(): boolean {
		return this.controller.signal.aborted;
	}

	/** From now on, waits `waitMs` instead. */
	restart(waitMs: number): void {
		this.clear();
		this.waitMs = waitMs;
		this.timer = setTimeout(() => this.controller.abort(), waitMs);
	}

	clear(): void {
		clearTimeout(this.timer);
	}
}
