/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the sandbox runs in plain Node, never inside n8n */

/**
 * Every timer of the sandbox (message status changes, webhook retries) goes through here, so that
 * `close()` can cancel them all and a test leaves nothing running behind it.
 */
export class Scheduler {
	private readonly timers = new Set<NodeJS.Timeout>();
	private closed = false;

	constructor(private readonly onError: (error: unknown) => void) {}

	after(delayMs: number, task: () => void | Promise<void>): void {
		if (this.closed) return;
		const timer = setTimeout(
			() => {
				this.timers.delete(timer);
				if (this.closed) return;
				Promise.resolve()
					.then(task)
					.catch((error: unknown) => this.onError(error));
			},
			Math.max(0, delayMs),
		);
		// The HTTP server keeps the process alive; pending timers alone should not.
		timer.unref();
		this.timers.add(timer);
	}

	get isClosed(): boolean {
		return this.closed;
	}

	close(): void {
		this.closed = true;
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
	}
}
