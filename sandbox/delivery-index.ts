import type { DeliveryRecord } from './records';

/**
 * The webhook deliveries by webhook and event, kept beside the store (which keeps it up to date as deliveries
 * are inserted, removed and put back), so that a claim asks "was this event delivered to this webhook?" without
 * walking every delivery kept (10,000 claims over 10,000 deliveries took minutes).
 */
export class DeliveryIndex {
	/** `webhookId event eventId` → the ids of its deliveries. */
	private readonly byEvent = new Map<string, Set<string>>();
	/** Where each delivery is indexed. */
	private readonly keys = new Map<string, string>();

	put(delivery: DeliveryRecord): void {
		const key = keyOf(delivery.webhookId, delivery.eventId);
		if (this.keys.get(delivery.id) === key) return;
		this.delete(delivery.id);
		this.keys.set(delivery.id, key);
		let ids = this.byEvent.get(key);
		if (!ids) this.byEvent.set(key, (ids = new Set()));
		ids.add(delivery.id);
	}

	delete(id: string): void {
		const key = this.keys.get(id);
		if (key === undefined) return;
		this.keys.delete(id);
		const ids = this.byEvent.get(key);
		ids?.delete(id);
		if (ids?.size === 0) this.byEvent.delete(key);
	}

	/** Whether the event has a delivery to the webhook. */
	has(webhookId: string, eventId: string): boolean {
		return this.byEvent.has(keyOf(webhookId, eventId));
	}
}

const keyOf = (webhookId: string, eventId: string) => `${webhookId} event ${eventId}`;
