/**
 * Deliveries to one receiver are paced: at most `window` attempts of its deliveries are in flight, the rest wait
 * here, oldest event first. A flood (a viral link, a disabled webhook's backlog released) then waits at the service
 * instead of drowning the receiver, and an answer never comes late because thousands were sent at once. The window
 * starts at the bound, halves when an attempt gets no answer in time (once per round of attempts, as TCP does: the
 * attempts of one round time out together for one cause) and grows by one with each delivered answer.
 *
 * Waiting for a slot is not an attempt: the attempt's deadline starts once it has its slot.
 */

/** What an attempt that had a slot came to. */
export type SlotOutcome = 'delivered' | 'timedOut' | 'other';

/** An attempt given its slot; it calls `done` once over, which frees the slot. */
export type Start = (done: (outcome: SlotOutcome) => void) => void;

/** Where a delivery waits: its receiver, and its event's creation time (oldest first). */
export interface Lane {
	receiver: string;
	createdAt: string;
}

interface Waiter {
	createdAt: string;
	/** Arrival order, among events made in the same millisecond. */
	arrival: number;
	start: Start;
}

/** One receiver's window, its attempts in flight and its waiting deliveries (a binary heap, oldest at the top). */
interface Window {
	size: number;
	inFlight: number;
	waiting: Waiter[];
	/** Slots handed out so far, and how many had been when the window last halved. */
	granted: number;
	halvedAt: number;
}

const NOTHING_TO_FREE = () => undefined;

export class Pacing {
	private readonly windows = new Map<string, Window>();
	private arrivals = 0;

	constructor(private readonly maxInFlight: number) {}

	/**
	 * Starts an attempt to the lane's receiver once its window has room: now if it has, else when the oldest's turn
	 * comes. Unpaced without a lane. A waiting attempt is this small entry, not a suspended attempt and its promise:
	 * 10,000 of those made a drain take half as long again, most of it in the garbage collector.
	 */
	enqueue(lane: Lane | undefined, start: Start): void {
		if (!lane) return start(NOTHING_TO_FREE);
		let window = this.windows.get(lane.receiver);
		if (!window) {
			window = { size: this.maxInFlight, inFlight: 0, waiting: [], granted: 0, halvedAt: 0 };
			this.windows.set(lane.receiver, window);
		}
		push(window.waiting, { createdAt: lane.createdAt, arrival: this.arrivals++, start });
		this.admit(lane.receiver, window);
	}

	/** Attempts in flight to a receiver now. */
	inFlight(receiver: string): number {
		return this.windows.get(receiver)?.inFlight ?? 0;
	}

	private admit(receiver: string, window: Window): void {
		while (window.inFlight < window.size && window.waiting.length > 0) {
			const next = pop(window.waiting);
			window.inFlight++;
			const round = ++window.granted;
			let freed = false;
			next.start((outcome) => {
				if (freed) return;
				freed = true;
				window.inFlight--;
				this.answered(window, outcome, round);
				this.admit(receiver, window);
			});
		}
		// Nothing to remember of a receiver at rest with a full window.
		if (window.inFlight === 0 && window.waiting.length === 0 && window.size === this.maxInFlight)
			this.windows.delete(receiver);
	}

	private answered(window: Window, outcome: SlotOutcome, round: number): void {
		if (outcome === 'delivered') window.size = Math.min(this.maxInFlight, window.size + 1);
		if (outcome !== 'timedOut' || round <= window.halvedAt) return;
		// Sent after the last halving: this round timed out too.
		window.size = Math.max(1, Math.floor(window.size / 2));
		window.halvedAt = window.granted;
	}
}

const before = (a: Waiter, b: Waiter) =>
	a.createdAt < b.createdAt || (a.createdAt === b.createdAt && a.arrival < b.arrival);

function push(heap: Waiter[], waiter: Waiter): void {
	heap.push(waiter);
	for (let at = heap.length - 1; at > 0; ) {
		const parent = (at - 1) >> 1;
		if (!before(heap[at], heap[parent])) return;
		[heap[at], heap[parent]] = [heap[parent], heap[at]];
		at = parent;
	}
}

function pop(heap: Waiter[]): Waiter {
	const top = heap[0];
	const last = heap.pop()!;
	if (heap.length === 0) return top;
	heap[0] = last;
	for (let at = 0; ; ) {
		const left = 2 * at + 1;
		const right = left + 1;
		let first = at;
		if (left < heap.length && before(heap[left], heap[first])) first = left;
		if (right < heap.length && before(heap[right], heap[first])) first = right;
		if (first === at) return top;
		[heap[at], heap[first]] = [heap[first], heap[at]];
		at = first;
	}
}
