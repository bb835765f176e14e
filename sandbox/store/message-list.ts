import type { MessageRecord } from './records';

/**
 * The messages of one instance, or of one chat, in the store's order (creation order), for the message
 * index (message-index.ts). Each has the order number the index gave it, increasing along the list, so that
 * a page can start right after the message its cursor names, or, when that message is gone, after where it
 * stood. Removing leaves a hole, and the holes are swept once they are half the list.
 */
export class MessageList {
	private entries: Array<MessageRecord | undefined> = [];
	private orders: number[] = [];
	/** The index in `entries` of each message's entry. */
	private readonly slots = new Map<string, number>();

	get size(): number {
		return this.slots.size;
	}

	has(id: string): boolean {
		return this.slots.has(id);
	}

	/** Adds a message at the end, or replaces the one with its id where it stands. */
	put(message: MessageRecord, order: number): void {
		const slot = this.slots.get(message.id);
		if (slot !== undefined) {
			this.entries[slot] = message;
			return;
		}
		this.slots.set(message.id, this.entries.length);
		this.entries.push(message);
		this.orders.push(order);
	}

	delete(id: string): void {
		const slot = this.slots.get(id);
		if (slot === undefined) return;
		this.entries[slot] = undefined;
		this.slots.delete(id);
		if (this.entries.length > 64 && this.slots.size < this.entries.length / 2) this.sweep();
	}

	/** The newest message, with its order number. */
	newest(): { message: MessageRecord; order: number } | undefined {
		for (let index = this.entries.length - 1; index >= 0; index--) {
			const message = this.entries[index];
			if (message) return { message, order: this.orders[index] };
		}
		return undefined;
	}

	/**
	 * The messages newest first (or oldest first), starting after the message `after` names (by id, or when it
	 * is gone by its order number); each with its order number.
	 */
	*walk(
		newestFirst: boolean,
		after?: { id: string; order: number },
	): Generator<{ message: MessageRecord; order: number }> {
		const step = newestFirst ? -1 : 1;
		let index = newestFirst ? this.entries.length - 1 : 0;
		if (after)
			index = (this.slots.get(after.id) ?? this.insertionPoint(after.order, newestFirst)) + step;
		for (; index >= 0 && index < this.entries.length; index += step) {
			const message = this.entries[index];
			if (message) yield { message, order: this.orders[index] };
		}
	}

	/** Where an entry of order number `order` would stand, seen from the walk's side. */
	private insertionPoint(order: number, newestFirst: boolean): number {
		let low = 0;
		let high = this.orders.length;
		while (low < high) {
			const middle = (low + high) >>> 1;
			if (this.orders[middle] < order) low = middle + 1;
			else high = middle;
		}
		// `low`: the first entry at or after `order`. Newest first, the walk goes on from the one before it.
		return newestFirst ? low : low - 1;
	}

	private sweep(): void {
		const entries: Array<MessageRecord | undefined> = [];
		const orders: number[] = [];
		this.entries.forEach((message, index) => {
			if (!message) return;
			this.slots.set(message.id, entries.length);
			entries.push(message);
			orders.push(this.orders[index]);
		});
		this.entries = entries;
		this.orders = orders;
	}
}
