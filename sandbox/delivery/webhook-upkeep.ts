import { PING_EVENT } from '../../src/client/signature';
import type { WebhookDeliveries } from './deliveries';
import { envelope, type DeliveryEngine, type DeliveryOptions } from './delivery-engine';
import type { Scheduler } from '../scheduler';
import type { Store, WebhookRecord } from '../store/store';

/**
 * What keeps webhooks from going silent, and bounds what they keep, on one timer: a disabled webhook is pinged
 * (a signed `ping` event) at doubling intervals, from `pingMinMs` to `pingMaxMs`, and enabled again with its
 * backlog as soon as its receiver acknowledges one; events kept for longer than the retention go, and so does
 * a webhook disabled for longer than that, or deleted by its owner for longer than the grace period.
 */
export class WebhookUpkeep {
	/** The pings under way, by webhook: a slow receiver is not pinged twice at once. */
	private readonly pinging = new Set<string>();

	constructor(
		private readonly store: Store,
		private readonly engine: DeliveryEngine,
		private readonly deliveries: WebhookDeliveries,
		private readonly options: DeliveryOptions,
		private readonly now: () => Date,
		private readonly scheduler: Scheduler,
		private readonly onBackgroundChange: () => void,
	) {}

	start(): void {
		this.scheduler.after(this.options.upkeepMs, () => {
			this.tick();
			this.start();
		});
	}

	/** One round: pings that are due go out; what is past its retention or grace goes. */
	tick(): void {
		const nowMs = this.now().getTime();
		const since = (at: string | null | undefined) => nowMs - Date.parse(at ?? '');
		let changed = false;
		for (const webhook of this.store.all('webhooks')) {
			if (
				(webhook.status === 'deleted' && since(webhook.disabledAt) >= this.options.graceMs) ||
				(webhook.status === 'disabled' && since(webhook.disabledAt) >= this.options.retentionMs)
			) {
				this.store.remove('webhooks', webhook.id);
				this.deliveries.forgetWebhook(webhook.id);
				changed = true;
			} else if (webhook.status === 'disabled' && since(webhook.nextPingAt) >= 0) {
				void this.ping(webhook);
				changed = true;
			}
		}
		for (const delivery of this.store.values('deliveries')) {
			if (delivery.status !== 'held' || since(delivery.createdAt) < this.options.retentionMs)
				continue;
			this.store.remove('deliveries', delivery.id);
			changed = true;
		}
		if (changed) this.onBackgroundChange();
	}

	/** One signed ping; acknowledged, the webhook is enabled again and its backlog sent, oldest first. */
	async ping(webhook: WebhookRecord): Promise<void> {
		if (this.pinging.has(webhook.id)) return;
		const interval = Math.min(
			(webhook.pingIntervalMs ?? this.options.pingMinMs) * 2,
			this.options.pingMaxMs,
		);
		webhook.nextPingAt = new Date(this.now().getTime() + interval).toISOString();
		webhook.pingIntervalMs = interval;
		// Saved with its id before it is sent (saveFirst): after a crash the same ping goes again.
		const made = envelope(webhook.workspaceId, PING_EVENT, { webhookId: webhook.id }, this.now());
		webhook.ping ??= { eventId: made.id, createdAt: made.createdAt };
		const event = { ...made, id: webhook.ping.eventId, createdAt: webhook.ping.createdAt };
		this.pinging.add(webhook.id);
		try {
			const result = await this.engine.post(webhook, JSON.stringify(event), event.id, 1, true);
			const current = this.store.get('webhooks', webhook.id);
			if (result.aborted || !current) return;
			current.ping = null;
			if (current.status === 'disabled') {
				this.deliveries.noteAnswer(current, result);
				if (this.deliveries.delivered(current.id, result)) this.deliveries.enable(current);
			}
			this.onBackgroundChange();
		} finally {
			this.pinging.delete(webhook.id);
		}
	}
}
