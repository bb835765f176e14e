import type { KeyKind } from '../../src/client/api';
import { subscribesTo, type EventSubject } from '../../src/client/events';
import {
	HELD,
	isSuccess,
	newDelivery,
	type DeliveryEngine,
	type DeliveryKind,
	type DeliveryOptions,
	type EventEnvelope,
	type PostResult,
} from './delivery-engine';
import { Batching } from './batching';
import { Gathering, type GatheringLimits } from './gathering';
import type { Scheduler } from '../scheduler';
import { newId, type DeliveryRecord, type Store, type WebhookRecord } from '../store/store';

/**
 * Webhook deliveries: each event goes to every webhook of its workspace and surface that wants it, through the
 * delivery engine; a webhook whose deliveries keep using up all their attempts, or whose receiver answers that
 * it is gone, is disabled and keeps its events (held) until it is enabled again (webhook-upkeep.ts pings it).
 * Finished deliveries are kept, a few per webhook, as its delivery log. A webhook that gathers bursts gets a
 * person's messages through its `gathering` (gathering.ts); one that takes batches, its events through its
 * `batching` (batching.ts).
 */

export function keyKindOfEvent(type: string): KeyKind {
	if (type.startsWith('link.')) return 'shortLink';
	if (type.startsWith('automation.')) return 'automation';
	return 'workspace';
}

export function webhookWants(webhook: WebhookRecord, type: string, subject: EventSubject): boolean {
	if (!subscribesTo(webhook.events, type)) return false;
	const { instanceIds, linkIds } = webhook.filters;
	if (instanceIds && !(subject.instanceId && instanceIds.includes(subject.instanceId)))
		return false;
	if (linkIds && !(subject.linkId && linkIds.includes(subject.linkId))) return false;
	return true;
}

/** Answers of a gateway in front of a receiver that did not answer itself, or of a receiver not ready. */
const UNREACHABLE_STATUSES = new Set([502, 503, 504]);

/** Held deliveries released per turn of the event loop when their webhook is enabled. */
const RELEASED_AT_ONCE = 50;

/** Answers that say the receiver does not know this webhook (n8n's 404 for a workflow it no longer has). */
const GONE_STATUSES = new Set([404, 410]);

export class WebhookDeliveries {
	private readonly kind: DeliveryKind<DeliveryRecord> = {
		find: (id) => {
			const delivery = this.store.get('deliveries', id);
			if (!delivery) return undefined;
			const webhook = this.store.get('webhooks', delivery.webhookId);
			if (!webhook) return { delivery, receiver: 'The webhook was deleted' };
			return { delivery, receiver: webhook.status === 'active' ? webhook : HELD };
		},
		delivered: (delivery, result) => this.delivered(delivery.webhookId, result),
		answered: (delivery, result) => {
			const webhook = this.store.get('webhooks', delivery.webhookId);
			if (webhook) this.noteAnswer(webhook, result);
		},
		moved: (delivery) => this.store.deliveryIndex.put(delivery),
		lane: (delivery) => ({ receiver: delivery.webhookId, createdAt: delivery.createdAt }),
		ended: (_id, delivery, end) => {
			const webhook = this.store.get('webhooks', delivery.webhookId);
			this.prune(delivery.webhookId);
			if (!webhook) return;
			if (end === 'succeeded') {
				webhook.failedDeliveries = 0;
				webhook.failingDeliveryIds = [];
			}
			if (end === 'exhausted') this.countFailure(webhook, delivery);
		},
	};

	/** The bursts held for webhooks that gather them. */
	readonly gathering: Gathering;
	/** The open batches of webhooks that take their events in batches. */
	readonly batching: Batching;

	constructor(
		private readonly store: Store,
		private readonly engine: DeliveryEngine,
		private readonly options: DeliveryOptions,
		private readonly now: () => Date,
		private readonly scheduler: Scheduler,
		private readonly onBackgroundChange: () => void,
		gatheringLimits?: GatheringLimits,
	) {
		const holding = {
			store,
			scheduler,
			now,
			onBackgroundChange,
			queue: (webhook: WebhookRecord, event: EventEnvelope) => this.queue(webhook, event),
		};
		this.gathering = new Gathering(holding, gatheringLimits);
		this.batching = new Batching(holding);
	}

	/**
	 * Queues the event for every webhook that wants it (or holds it in a burst). A disabled webhook, or one its
	 * owner deleted moments ago, keeps it, held, for when it is enabled or taken back.
	 */
	deliver(event: EventEnvelope, subject: EventSubject): void {
		const surface = keyKindOfEvent(event.type);
		for (const webhook of this.store.all('webhooks')) {
			if (webhook.workspaceId !== event.workspaceId || webhook.surface !== surface) continue;
			if (!webhookWants(webhook, event.type, subject)) continue;
			if (webhook.status === 'active' && this.gathering.hold(webhook, event)) continue;
			// A disabled webhook batches too: its batches are held like any event, fewer to keep.
			if (this.batching.hold(webhook, event)) continue;
			this.queue(webhook, event);
		}
	}

	/** Queues an event for a webhook, or keeps it held while the webhook cannot take it. */
	private queue(webhook: WebhookRecord, event: EventEnvelope): void {
		if (webhook.status !== 'active') return this.keepHeld(webhook, event);
		const delivery = this.deliverTo(webhook, event);
		this.engine.schedule(this.kind, delivery.id, delivery);
	}

	/** After a restart: every delivery still pending is sent again when its retry was due; bursts, batches likewise. */
	resume(): void {
		this.engine.leases.keepLeasesOfStoppedAttempts();
		for (const delivery of this.store.all('deliveries')) {
			this.engine.schedule(this.kind, delivery.id, delivery);
		}
		for (const webhook of this.store.all('webhooks')) {
			if (webhook.status === 'active') this.releaseHeld(webhook.id);
		}
		this.gathering.resume();
		this.batching.resume();
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
				const result = await this.engine.post(
					webhook,
					delivery.payload,
					delivery.eventId,
					delivery.attempt + 1,
				);
				return result.status;
			}),
		);
	}

	/** Whether an answer delivered an event: a 2xx, acknowledged where the webhook asks for that. */
	delivered(webhookId: string, result: PostResult): boolean {
		const webhook = this.store.get('webhooks', webhookId);
		return (
			isSuccess(result.status) && (webhook?.requireAcknowledgement !== true || result.acknowledged)
		);
	}

	/** Disables a webhook; its events are kept (held) from now on, the failing ones that disabled it too. */
	disable(
		webhook: WebhookRecord,
		code: 'failures' | 'receiver_gone' | 'api',
		reason: string,
	): void {
		const at = this.now();
		if (webhook.status !== 'disabled') webhook.disabledAt = at.toISOString();
		webhook.status = 'disabled';
		webhook.disabledCode = code;
		webhook.disabledReason = reason;
		webhook.updatedAt = at.toISOString();
		// Pinged until it acknowledges, unless someone turned it off on purpose.
		webhook.pingIntervalMs = this.options.pingMinMs;
		webhook.nextPingAt =
			code === 'api' ? null : new Date(at.getTime() + this.options.pingMinMs).toISOString();
		for (const id of webhook.failingDeliveryIds ?? []) {
			const delivery = this.store.get('deliveries', id);
			if (delivery?.status === 'failed') this.engine.hold(this.kind, delivery);
		}
		webhook.failingDeliveryIds = [];
	}

	/**
	 * Enables a webhook again and sends what it kept, oldest first, each with a fresh set of attempts, paced like
	 * any delivery (sandbox/delivery/pacing.ts): a backlog of 10,000 waits at the service, at most 64 in flight.
	 */
	enable(webhook: WebhookRecord): void {
		webhook.status = 'active';
		webhook.disabledReason = null;
		webhook.disabledCode = null;
		webhook.disabledAt = null;
		webhook.nextPingAt = null;
		webhook.goneSince = null;
		webhook.failedDeliveries = 0;
		webhook.failingDeliveryIds = [];
		webhook.updatedAt = this.now().toISOString();
		this.releaseHeld(webhook.id);
	}

	/**
	 * Sends a webhook's held deliveries again, oldest first (held in another order: failing ones are held when the
	 * webhook is disabled), `RELEASED_AT_ONCE` per turn of the event loop: releasing 10,000 in one go stalled the
	 * service. After a restart, `resume` goes on with what an active webhook still holds.
	 */
	private releaseHeld(webhookId: string): void {
		const oldestFirst = [...this.store.deliveryIndex.heldOf(webhookId)]
			.flatMap((id) => this.store.get('deliveries', id) ?? [])
			.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
		this.releaseFrom(webhookId, oldestFirst, 0);
	}

	private releaseFrom(webhookId: string, oldestFirst: DeliveryRecord[], from: number): void {
		const to = Math.min(oldestFirst.length, from + RELEASED_AT_ONCE);
		for (const delivery of oldestFirst.slice(from, to)) {
			// Not removed or released meanwhile.
			if (this.store.get('deliveries', delivery.id)?.status === 'held')
				this.engine.release(this.kind, delivery.id, delivery);
		}
		if (to === oldestFirst.length) return;
		this.scheduler.after(0, () => {
			if (this.store.get('webhooks', webhookId)?.status !== 'active') return;
			this.releaseFrom(webhookId, oldestFirst, to);
			this.onBackgroundChange();
		});
	}

	/** Drops the deliveries, bursts, batches and claims of a webhook deleted for good. */
	forgetWebhook(webhookId: string): void {
		for (const delivery of this.store.all(
			'deliveries',
			(record) => record.webhookId === webhookId,
		)) {
			this.store.remove('deliveries', delivery.id);
		}
		this.gathering.forgetWebhook(webhookId);
		this.batching.forgetWebhook(webhookId);
		this.engine.leases.forget(webhookId);
	}

	/** One event's delivery to one webhook, kept. */
	private deliverTo(webhook: WebhookRecord, event: EventEnvelope): DeliveryRecord {
		return this.store.insert('deliveries', {
			id: newId('dlv'),
			workspaceId: event.workspaceId,
			webhookId: webhook.id,
			eventType: event.type,
			createdAt: event.createdAt,
			...newDelivery(event),
		});
	}

	/** Keeps an event for a webhook that cannot take it now; past the bound, its oldest kept event goes. */
	private keepHeld(webhook: WebhookRecord, event: EventEnvelope): void {
		this.dropOldest(
			this.store.deliveryIndex.heldOf(webhook.id),
			this.options.maxHeldPerWebhook - 1,
		);
		this.engine.hold(this.kind, this.deliverTo(webhook, event));
	}

	/** 404 or 410 to every attempt for `receiverGoneMs`: the receiver is gone (`receiver_gone`). */
	noteAnswer(webhook: WebhookRecord, { status, aborted }: PostResult): void {
		if (aborted) return;
		if (status === null || !GONE_STATUSES.has(status)) {
			webhook.goneSince = null;
			return;
		}
		const now = this.now();
		webhook.goneSince ??= now.toISOString();
		const goneFor = now.getTime() - Date.parse(webhook.goneSince);
		if (goneFor < this.options.receiverGoneMs || webhook.disabledCode === 'receiver_gone') return;
		this.disable(
			webhook,
			'receiver_gone',
			`The receiver has answered ${status} (it does not know this webhook) to every delivery since ${webhook.goneSince}. Its events are kept and it is pinged; it is deleted when disabled for longer than the retention.`,
		);
	}

	/**
	 * A delivery used up its attempts. When the receiver never took it (no answer, a gateway's 502/503/504, a 2xx
	 * without the acknowledgement, or a 404/410 last: it did not know the webhook, as n8n answers while it starts
	 * and has not registered its triggers yet), the webhook is disabled at once and the event kept, however quiet
	 * the webhook is; a receiver that is gone for good is then told by the pings (receiver_gone). A receiver that
	 * refused this event with an error of its own counts towards disabling, as before: one event it cannot take
	 * must not stop the rest.
	 */
	private countFailure(webhook: WebhookRecord, delivery: DeliveryRecord): void {
		webhook.failedDeliveries++;
		webhook.failingDeliveryIds = [...(webhook.failingDeliveryIds ?? []), delivery.id];
		const unreachable =
			delivery.responseStatus === null ||
			UNREACHABLE_STATUSES.has(delivery.responseStatus) ||
			GONE_STATUSES.has(delivery.responseStatus) ||
			isSuccess(delivery.responseStatus);
		if (!unreachable && webhook.failedDeliveries < this.options.disableAfterFailedDeliveries)
			return;
		this.disable(
			webhook,
			'failures',
			`Disabled after ${webhook.failedDeliveries === 1 ? 'a delivery' : `${webhook.failedDeliveries} deliveries in a row`} failed all ${this.options.maxAttempts} ` +
				`attempts (last: ${delivery.error}). Its events are kept and it is pinged; it is enabled again as soon as ` +
				'its receiver acknowledges a ping (or update it with enabled: true).',
		);
	}

	/** The delivery log keeps the last `logSize` finished deliveries of each webhook. */
	private prune(webhookId: string): void {
		this.dropOldest(this.store.deliveryIndex.finishedOf(webhookId), this.options.logSize);
	}

	/** Removes the first of `ids` (an index's list, oldest first) until `keep` are left. */
	private dropOldest(ids: ReadonlySet<string>, keep: number): void {
		for (const id of ids) {
			if (ids.size <= keep) return;
			this.store.remove('deliveries', id);
		}
	}
}
