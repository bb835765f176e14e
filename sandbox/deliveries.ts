import type { KeyKind } from '../src/client/api';
import type { EventSubject } from '../src/client/events';
import { releaseClaim } from './claims';
import {
	newDelivery,
	type DeliveryEngine,
	type DeliveryKind,
	type DeliveryOptions,
	type EventEnvelope,
} from './delivery-engine';
import { Gathering, type GatheringLimits } from './gathering';
import type { Scheduler } from './scheduler';
import { newId, type DeliveryRecord, type Store, type WebhookRecord } from './store';

/**
 * Webhook deliveries: each event goes to every active webhook of its workspace and surface that wants it,
 * through the delivery engine; a webhook whose deliveries keep using up all their attempts is disabled.
 * Finished deliveries are kept, a few per webhook, as its delivery log. A webhook that gathers bursts gets a
 * person's messages through its `gathering` (gathering.ts).
 */

export function keyKindOfEvent(type: string): KeyKind {
	if (type.startsWith('link.')) return 'shortLink';
	if (type.startsWith('automation.')) return 'automation';
	return 'workspace';
}

export function webhookWants(webhook: WebhookRecord, type: string, subject: EventSubject): boolean {
	const subscribed =
		webhook.events.includes('*') ||
		webhook.events.includes(type) ||
		(type.startsWith('automation.') && webhook.events.includes('automation.*'));
	if (!subscribed) return false;
	const { instanceIds, linkIds } = webhook.filters;
	if (instanceIds && !(subject.instanceId && instanceIds.includes(subject.instanceId)))
		return false;
	if (linkIds && !(subject.linkId && linkIds.includes(subject.linkId))) return false;
	return true;
}

/**
 * An error status the receiver itself gave (n8n answers 500 when it cannot start the execution): it did not
 * take the event. 502 and 504 come from a proxy in front of it that got no answer, like a timeout: the event
 * may have run, so a claim made for that request stays.
 */
function receiverRefused(status: number): boolean {
	return (status < 200 || status >= 300) && status !== 502 && status !== 504;
}

export class WebhookDeliveries {
	private readonly kind: DeliveryKind<DeliveryRecord> = {
		find: (id) => {
			const delivery = this.store.get('deliveries', id);
			if (!delivery) return undefined;
			const webhook = this.store.get('webhooks', delivery.webhookId);
			if (!webhook) return { delivery, receiver: 'The webhook was deleted' };
			if (webhook.status !== 'active') return { delivery, receiver: 'The webhook is disabled' };
			return { delivery, receiver: webhook };
		},
		answered: (delivery, { status, deliveryId }) =>
			this.releaseIfRefused(delivery, status, deliveryId),
		ended: (_id, delivery, end) => {
			const webhook = this.store.get('webhooks', delivery.webhookId);
			this.prune(delivery.webhookId);
			if (!webhook) return;
			if (end === 'succeeded') webhook.failedDeliveries = 0;
			if (end === 'exhausted') this.countFailure(webhook, delivery);
		},
	};

	/** The bursts held for webhooks that gather them. */
	readonly gathering: Gathering;

	constructor(
		private readonly store: Store,
		private readonly engine: DeliveryEngine,
		private readonly options: DeliveryOptions,
		private readonly now: () => Date,
		scheduler: Scheduler,
		onBackgroundChange: () => void,
		gatheringLimits?: GatheringLimits,
	) {
		this.gathering = new Gathering(
			store,
			scheduler,
			now,
			onBackgroundChange,
			(webhook, event) => this.deliverTo(webhook, event),
			gatheringLimits,
		);
	}

	/** Queues the event for every webhook that wants it (or holds it in a burst). */
	deliver(event: EventEnvelope, subject: EventSubject): void {
		const surface = keyKindOfEvent(event.type);
		for (const webhook of this.store.all('webhooks')) {
			if (webhook.workspaceId !== event.workspaceId || webhook.surface !== surface) continue;
			if (webhook.status !== 'active' || !webhookWants(webhook, event.type, subject)) continue;
			if (!this.gathering.hold(webhook, event)) this.deliverTo(webhook, event);
		}
	}

	/** After a restart: every delivery still pending is sent again when its retry was due; bursts likewise. */
	resume(): void {
		for (const delivery of this.store.all('deliveries')) {
			this.engine.schedule(this.kind, delivery.id, delivery);
		}
		this.gathering.resume();
	}

	/**
	 * Sends a delivered event to its webhook again, `copies` times at once, each freshly signed, as a service
	 * does when an answer was lost; resolves with the status each got (null when the request failed).
	 */
	async redeliver(delivery: DeliveryRecord, copies: number): Promise<Array<number | null>> {
		const webhook = this.store.get('webhooks', delivery.webhookId);
		if (!webhook) return [];
		return await Promise.all(
			Array.from({ length: copies }, async () => {
				const { status, deliveryId } = await this.engine.post(
					webhook,
					delivery.payload,
					delivery.eventId,
					delivery.attempt + 1,
				);
				this.releaseIfRefused(delivery, status, deliveryId);
				return status;
			}),
		);
	}

	/** Drops the deliveries and bursts of a deleted webhook. */
	forgetWebhook(webhookId: string): void {
		for (const delivery of this.store.all(
			'deliveries',
			(record) => record.webhookId === webhookId,
		)) {
			this.store.remove('deliveries', delivery.id);
		}
		this.gathering.forgetWebhook(webhookId);
	}

	/** Queues one event for one webhook. */
	private deliverTo(webhook: WebhookRecord, event: EventEnvelope): void {
		const delivery = this.store.insert('deliveries', {
			id: newId('dlv'),
			workspaceId: event.workspaceId,
			webhookId: webhook.id,
			eventType: event.type,
			createdAt: event.createdAt,
			...newDelivery(event),
		});
		this.engine.schedule(this.kind, delivery.id, delivery);
	}

	/** An error status the receiver gave releases a claim made for that request. */
	private releaseIfRefused(
		delivery: DeliveryRecord,
		status: number | null,
		deliveryId: string,
	): void {
		if (status !== null && receiverRefused(status)) {
			releaseClaim(this.store, delivery.webhookId, delivery.eventId, deliveryId);
		}
	}

	private countFailure(webhook: WebhookRecord, delivery: DeliveryRecord): void {
		webhook.failedDeliveries++;
		if (webhook.failedDeliveries < this.options.disableAfterFailedDeliveries) return;
		webhook.status = 'disabled';
		webhook.disabledReason =
			`Disabled after ${webhook.failedDeliveries} deliveries in a row failed all ${this.options.maxAttempts} ` +
			`attempts (last: ${delivery.error}). Fix the receiver, then update the webhook with enabled: true.`;
		webhook.updatedAt = this.now().toISOString();
	}

	private prune(webhookId: string): void {
		const finished = this.store.all(
			'deliveries',
			(record) => record.webhookId === webhookId && record.status !== 'pending',
		);
		for (const old of finished.slice(0, Math.max(0, finished.length - this.options.logSize))) {
			this.store.remove('deliveries', old.id);
		}
	}
}
