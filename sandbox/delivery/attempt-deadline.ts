/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the sandbox runs in plain Node, never inside n8n */

/**
 * How long one delivery attempt waits for its answer: a signal that aborts the request when the time is up, moved
 * once the receiver claimed the event (DeliveryOptions.claimedTimeoutMs). The receiver is then at work (n8n is
 * starting the execution): giving up at the first timeout would lapse the lease of a run under way, and the next
 * attempt would run the event again (an overloaded n8n ran every attempt: 283 runs for 50 events). A receiver that
 * dies closes its connection, which lapses the lease at once.
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
