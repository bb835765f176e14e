import { Agent, request } from 'undici';

import type { KeyKind } from '../src/client/api';
import type { EventType } from '../src/client/events';
import {
	DELIVERY_ATTEMPT_HEADER,
	DELIVERY_ID_HEADER,
	EVENT_ID_HEADER,
	signPayload,
	SIGNATURE_HEADER,
} from '../src/client/signature';
import { releaseClaim } from './claims';
import type { Scheduler } from './scheduler';
import { newId, type DeliveryRecord, type Store, type WebhookRecord } from './store';
import { COULD_NOT_CONNECT, guardedLookup, webhookUrlProblem } from './webhook-targets';

/**
 * Webhook delivery as SERVICE.md fixes it: signed, at least once, retried with exponential backoff and
 * jitter on a non-2xx answer or a timeout, up to `maxAttempts`; a webhook whose deliveries keep using up
 * all their attempts is disabled. Events are queued and sent from timers, never inside an API request.
 */

export interface DeliveryOptions {
	maxAttempts: number;
	/** First retry delay; doubles with each attempt, with jitter. 10 s on a real service, less in tests. */
	retryBaseMs: number;
	maxRetryDelayMs: number;
	/** An answer that takes longer than this counts as a failure. */
	timeoutMs: number;
	/** Deliveries in a row that use up all their attempts before the webhook is disabled. */
	disableAfterFailedDeliveries: number;
	/** Finished deliveries kept per webhook for the delivery log. */
	logSize: number;
	random: () => number;
}

export const DEFAULT_DELIVERY_OPTIONS: DeliveryOptions = {
	maxAttempts: 8,
	retryBaseMs: 10_000,
	maxRetryDelayMs: 60 * 60_000,
	timeoutMs: 10_000,
	disableAfterFailedDeliveries: 3,
	logSize: 200,
	random: Math.random,
};

/** The ids a webhook's `filters` look at: the instance of a messaging event, the link of a link event. */
export interface EventSubject {
	instanceId?: string;
	linkId?: string;
}

export interface EventEnvelope {
	id: string;
	type: EventType;
	createdAt: string;
	workspaceId: string;
	data: unknown;
}

/** What one POST to a receiver came to: its status, or why there was none. */
export interface PostResult {
	status: number | null;
	error: string | null;
	/** The sandbox was closing: the attempt does not count. */
	aborted: boolean;
	/** The `X-Multichannel-Delivery-Id` it carried. */
	deliveryId: string;
}

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

export class DeliveryEngine {
	/** Connections resolve names through the guard: no delivery reaches a refused address. */
	private readonly agent = new Agent({
		keepAliveTimeout: 1_000,
		connect: { lookup: guardedLookup() },
	});
	private readonly inFlight = new Set<AbortController>();
	/** Every event emitted since start, newest last: lets tests and tools see what happened. */
	readonly emitted: EventEnvelope[] = [];

	constructor(
		private readonly store: Store,
		private readonly scheduler: Scheduler,
		private readonly options: DeliveryOptions,
		private readonly now: () => Date,
		/** Called after background changes, so that the data file is saved. */
		private readonly onChange: () => void,
	) {}

	emit(
		workspaceId: string,
		type: EventType,
		data: unknown,
		subject: EventSubject = {},
	): EventEnvelope {
		const event: EventEnvelope = {
			id: newId('evt'),
			type,
			createdAt: this.now().toISOString(),
			workspaceId,
			data,
		};
		this.emitted.push(event);
		if (this.emitted.length > 1000) this.emitted.shift();
		const keyKind = keyKindOfEvent(type);
		const payload = JSON.stringify(event);
		for (const webhook of this.store.all('webhooks')) {
			if (webhook.workspaceId !== workspaceId || webhook.surface !== keyKind) continue;
			if (webhook.status !== 'active' || !webhookWants(webhook, type, subject)) continue;
			const delivery = this.store.insert('deliveries', {
				id: newId('dlv'),
				workspaceId,
				webhookId: webhook.id,
				eventId: event.id,
				eventType: type,
				payload,
				attempt: 0,
				status: 'pending',
				responseStatus: null,
				error: null,
				createdAt: event.createdAt,
				updatedAt: event.createdAt,
				nextAttemptAt: event.createdAt,
				attempts: [],
			});
			this.scheduler.after(0, () => this.attempt(delivery.id));
		}
		return event;
	}

	/** After a restart: every delivery still pending is sent again when its retry was due. */
	resume(): void {
		const nowMs = this.now().getTime();
		for (const delivery of this.store.all('deliveries', (record) => record.status === 'pending')) {
			const due = delivery.nextAttemptAt ? Date.parse(delivery.nextAttemptAt) - nowMs : 0;
			this.scheduler.after(due, () => this.attempt(delivery.id));
		}
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
				const { status } = await this.send(webhook, delivery, delivery.attempt + 1);
				return status;
			}),
		);
	}

	/** Drops the deliveries of a deleted webhook. */
	forgetWebhook(webhookId: string): void {
		for (const delivery of this.store.all(
			'deliveries',
			(record) => record.webhookId === webhookId,
		)) {
			this.store.remove('deliveries', delivery.id);
		}
	}

	async close(): Promise<void> {
		for (const controller of this.inFlight) controller.abort();
		await this.agent.destroy();
	}

	private async attempt(deliveryId: string): Promise<void> {
		const delivery = this.store.get('deliveries', deliveryId);
		if (!delivery || delivery.status !== 'pending') return;
		const webhook = this.store.get('webhooks', delivery.webhookId);
		if (!webhook || webhook.status !== 'active') {
			this.finish(
				delivery,
				'failed',
				webhook ? 'The webhook is disabled' : 'The webhook was deleted',
			);
			return;
		}

		const attempt = delivery.attempt + 1;
		const started = Date.now();
		const {
			status: responseStatus,
			error: failure,
			aborted,
		} = await this.send(webhook, delivery, attempt);
		// Closing mid-attempt: the delivery stays pending and is sent again after a restart.
		if (aborted || this.scheduler.isClosed) return;

		const at = this.now();
		const ok = responseStatus !== null && responseStatus >= 200 && responseStatus < 300;
		delivery.attempt = attempt;
		delivery.responseStatus = responseStatus;
		delivery.error = ok ? null : (failure ?? `HTTP ${responseStatus}`);
		delivery.updatedAt = at.toISOString();
		delivery.attempts.push({
			attempt,
			at: at.toISOString(),
			responseStatus,
			error: delivery.error,
			durationMs: Date.now() - started,
		});

		if (ok) {
			webhook.failedDeliveries = 0;
			this.finish(delivery, 'succeeded', null);
		} else if (attempt >= this.options.maxAttempts) {
			this.finish(delivery, 'failed', delivery.error);
			this.countFailure(webhook, delivery);
		} else {
			const delay = this.backoff(attempt);
			delivery.nextAttemptAt = new Date(at.getTime() + delay).toISOString();
			this.store.touch();
			this.onChange();
			this.scheduler.after(delay, () => this.attempt(delivery.id));
		}
	}

	/** One signed POST of a delivery's payload to its webhook; an error status releases a claim made for it. */
	private async send(
		webhook: WebhookRecord,
		delivery: DeliveryRecord,
		attempt: number,
	): Promise<PostResult> {
		const result = await this.post(webhook, delivery.payload, delivery.eventId, attempt);
		if (result.status !== null && receiverRefused(result.status)) {
			releaseClaim(this.store, webhook.id, delivery.eventId, result.deliveryId);
		}
		return result;
	}

	/**
	 * One signed POST of an event to a receiver (a webhook, or the URL of a one-shot answer registration); a
	 * fresh timestamp each time (receivers reject ones over 300 s).
	 */
	async post(
		target: { url: string; secret: string },
		payload: string,
		eventId: string,
		attempt: number,
	): Promise<PostResult> {
		const deliveryId = newId('dlr');
		// A URL stored before its target was refused (an older data file) is not tried.
		if (webhookUrlProblem(target.url))
			return { status: null, error: COULD_NOT_CONNECT, aborted: false, deliveryId };
		const controller = new AbortController();
		this.inFlight.add(controller);
		const timeout = AbortSignal.timeout(this.options.timeoutMs);
		try {
			const response = await request(target.url, {
				method: 'POST',
				dispatcher: this.agent,
				signal: AbortSignal.any([controller.signal, timeout]),
				headers: {
					'content-type': 'application/json',
					'user-agent': 'Multichannel-Sandbox-Webhooks/1.0',
					[SIGNATURE_HEADER]: signPayload(target.secret, payload),
					[EVENT_ID_HEADER]: eventId,
					[DELIVERY_ATTEMPT_HEADER]: String(attempt),
					[DELIVERY_ID_HEADER]: deliveryId,
				},
				body: payload,
			});
			await response.body.dump();
			return { status: response.statusCode, error: null, aborted: false, deliveryId };
		} catch {
			// No detail of the failure: a refused connection, an unknown name and a hang-up read alike, so
			// the log cannot tell which ports are open.
			const error = timeout.aborted
				? `No answer within ${this.options.timeoutMs} ms`
				: COULD_NOT_CONNECT;
			return { status: null, error, aborted: controller.signal.aborted, deliveryId };
		} finally {
			this.inFlight.delete(controller);
		}
	}

	/** Attempts a delivery gets before it fails for good. */
	get maxAttempts(): number {
		return this.options.maxAttempts;
	}

	/** Exponential backoff with "equal jitter": half of each step fixed, half random. */
	backoff(attempt: number): number {
		const step = Math.min(
			this.options.maxRetryDelayMs,
			this.options.retryBaseMs * 2 ** (attempt - 1),
		);
		return Math.round(step / 2 + (step / 2) * this.options.random());
	}

	private finish(
		delivery: DeliveryRecord,
		status: 'succeeded' | 'failed',
		error: string | null,
	): void {
		delivery.status = status;
		delivery.error = error;
		delivery.nextAttemptAt = null;
		delivery.updatedAt = this.now().toISOString();
		this.prune(delivery.webhookId);
		this.store.touch();
		this.onChange();
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
