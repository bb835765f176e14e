import type { DeliveryRecord } from './records';

/**
 * The webhook deliveries by webhook and event, and each webhook's held and finished ones in the order they came to
 * that state, kept beside the store (which keeps it up to date as deliveries are inserted, removed and put back;
 * deliveries.ts tells it when one changes state in place). So a claim asks "was this event delivered to this
 * webhook?", and holding, releasing or ending a delivery finds what it needs, without walking every delivery kept
 * (10,000 claims over 10,000 deliveries took minutes; pruning the log after each delivery was 40% of the CPU).
 */
export class DeliveryIndex {
	/** `webhookId event eventId` → the ids of its deliveries. */
	private readonly byEvent = new Map<string, Set<string>>();
	/** Where each delivery is indexed: its event's key, and its webhook's list of that state (if any). */
	private readonly places = new Map<string, { key: string; webhookId: string; state?: Listed }>();
	/** Per state and webhook, the ids of its held deliveries, and of its finished ones, oldest first. */
	private readonly lists = {
		held: new Map<string, Set<string>>(),
		finished: new Map<string, Set<string>>(),
	};

	put(delivery: DeliveryRecord): void {
		const key = keyOf(delivery.webhookId, delivery.eventId);
		const state = listedAs(delivery.status);
		const place = this.places.get(delivery.id);
		if (place?.key === key && place.state === state) return;
		this.delete(delivery.id);
		let ids = this.byEvent.get(key);
		if (!ids) this.byEvent.set(key, (ids = new Set()));
		ids.add(delivery.id);
		if (state) {
			const lists = this.lists[state];
			let list = lists.get(delivery.webhookId);
			if (!list) lists.set(delivery.webhookId, (list = new Set()));
			list.add(delivery.id);
		}
		this.places.set(delivery.id, { key, webhookId: delivery.webhookId, state });
	}

	delete(id: string): void {
		const place = this.places.get(id);
		if (place === undefined) return;
		this.places.delete(id);
		const ids = this.byEvent.get(place.key);
		ids?.delete(id);
		if (ids?.size === 0) this.byEvent.delete(place.key);
		if (!place.state) return;
		const lists = this.lists[place.state];
		const list = lists.get(place.webhookId);
		list?.delete(id);
		if (list?.size === 0) lists.delete(place.webhookId);
	}

	/** Whether the event has a delivery to the webhook. */
	has(webhookId: string, eventId: string): boolean {
		return this.byEvent.has(keyOf(webhookId, eventId));
	}

	/** The ids of the webhook's held deliveries, in the order they were held. */
	heldOf(webhookId: string): ReadonlySet<string> {
		return this.lists.held.get(webhookId) ?? NONE;
	}

	/** The ids of the webhook's finished deliveries, in the order they finished. */
	finishedOf(webhookId: string): ReadonlySet<string> {
		return this.lists.finished.get(webhookId) ?? NONE;
	}
}

type Listed = 'held' | 'finished';

const listedAs = (status: DeliveryRecord['status']): Listed | undefined =>
	status === 'held' ? 'held' : status === 'pending' ? undefined : 'finished';

const NONE: ReadonlySet<string> = new Set();

const keyOf = (webhookId: string, eventId: string) => `${webhookId} event ${eventId}`;
