import {
	GATHER_MAX_MESSAGES,
	type GatheredMessages,
} from '../src/client/resources/gathered-messages';
import type { EventEnvelope } from './delivery-engine';
import type { Scheduler } from './scheduler';
import { copyJson } from './tracked';
import { newId, type BurstRecord, type Store, type WebhookRecord } from './store';

/**
 * Gathered messages: for a webhook registered with `gather`, the messages a person sends in one chat are held
 * in a burst (one per webhook and chat) until the chat has been quiet for `quietSeconds`, or `maxWaitSeconds`
 * have passed since the burst's first message; then they go out as one `message.received` event. Bursts are
 * records of the store, so a restart finds them and their timers start again. The gathered event's id is
 * chosen when the burst opens: a burst sent again after a crash (its delivery made but not yet saved) carries
 * the same id, and the receiver's claim keeps it from running twice.
 */

export interface GatheringLimits {
	/** A burst that reaches this many messages is delivered at once. */
	maxMessages: number;
	/** Open bursts in all; one more delivers the oldest at once. */
	maxOpenBursts: number;
}

export const DEFAULT_GATHERING_LIMITS: GatheringLimits = {
	maxMessages: GATHER_MAX_MESSAGES,
	maxOpenBursts: 10_000,
};

type MessageData = Record<string, unknown>;

/**
 * A message a person sent in a chat: received, with its instance and chat. A tap on reply buttons or a list,
 * and an answer a question took, are routed by what they answer, so they are never held.
 */
function gatherable(event: EventEnvelope): event is EventEnvelope & { data: MessageData } {
	if (event.type !== 'message.received') return false;
	const data = event.data as MessageData | null;
	return (
		data !== null &&
		typeof data === 'object' &&
		data.direction === 'inbound' &&
		typeof data.instanceId === 'string' &&
		typeof data.chatId === 'string' &&
		!data.reply &&
		!data.answeredQuestion
	);
}

/** The event id a burst will be delivered under, kept in its id: `gth_<hex>` → `evt_<hex>`. */
function eventIdOf(burst: BurstRecord): string {
	return `evt_${burst.id.slice('gth_'.length)}`;
}

export function gatheredData(burst: BurstRecord): GatheredMessages {
	const messages = burst.messages;
	const from = messages.map((message) => message.from).find((value) => typeof value === 'string');
	return {
		gathered: true,
		instanceId: burst.instanceId,
		chatId: burst.chatId,
		from: from ?? null,
		count: messages.length,
		messageIds: messages.map((message) => String(message.id)),
		messages: messages as GatheredMessages['messages'],
		firstAt: burst.firstAt,
		lastAt: burst.lastAt,
	};
}

export class Gathering {
	constructor(
		private readonly store: Store,
		private readonly scheduler: Scheduler,
		private readonly now: () => Date,
		/** Called after changes made by a timer, so that the data file is saved. */
		private readonly onBackgroundChange: () => void,
		/** Queues an event for one webhook, as for any event. */
		private readonly deliverTo: (webhook: WebhookRecord, event: EventEnvelope) => void,
		private readonly limits: GatheringLimits = DEFAULT_GATHERING_LIMITS,
	) {}

	/** Holds the event in its chat's burst when the webhook gathers and the event is a person's message. */
	hold(webhook: WebhookRecord, event: EventEnvelope): boolean {
		const gather = webhook.gather;
		if (!gather || !gatherable(event)) return false;
		const { instanceId, chatId } = event.data as { instanceId: string; chatId: string };
		const now = this.now();
		const burst = this.openBurst(webhook, instanceId, chatId, now);
		burst.messages.push(copyJson(event.data));
		burst.lastAt = now.toISOString();
		const quietEnds = now.getTime() + gather.quietSeconds * 1000;
		const capReached = Date.parse(burst.firstAt) + gather.maxWaitSeconds * 1000;
		burst.dueAt = new Date(Math.min(quietEnds, capReached)).toISOString();
		if (burst.messages.length >= this.limits.maxMessages) this.flush(burst);
		else this.schedule(burst.id, burst.dueAt);
		return true;
	}

	/** Takes a message out of the bursts holding it: it answered a question, and goes to the wait only. */
	withdraw(messageId: string): void {
		for (const burst of this.store.values('bursts')) {
			burst.messages = burst.messages.filter((message) => message.id !== messageId);
		}
	}

	/** After a restart: every burst is delivered when it was due (at once if that has passed). */
	resume(): void {
		for (const burst of this.store.all('bursts')) this.schedule(burst.id, burst.dueAt);
	}

	/** Drops the bursts of a deleted webhook. */
	forgetWebhook(webhookId: string): void {
		for (const burst of this.store.values('bursts')) {
			if (burst.webhookId === webhookId) this.store.remove('bursts', burst.id);
		}
	}

	/** Delivers a webhook's bursts now (it no longer gathers). */
	flushWebhook(webhookId: string): void {
		for (const burst of this.store.values('bursts')) {
			if (burst.webhookId === webhookId) this.flush(burst);
		}
	}

	private openBurst(
		webhook: WebhookRecord,
		instanceId: string,
		chatId: string,
		now: Date,
	): BurstRecord {
		let open = 0;
		let oldest: BurstRecord | undefined;
		for (const burst of this.store.values('bursts')) {
			if (
				burst.webhookId === webhook.id &&
				burst.instanceId === instanceId &&
				burst.chatId === chatId
			) {
				return burst;
			}
			oldest ??= burst;
			open++;
		}
		if (oldest && open >= this.limits.maxOpenBursts) this.flush(oldest);
		const at = now.toISOString();
		return this.store.insert('bursts', {
			id: newId('gth'),
			workspaceId: webhook.workspaceId,
			webhookId: webhook.id,
			instanceId,
			chatId,
			messages: [],
			firstAt: at,
			lastAt: at,
			dueAt: at,
		});
	}

	private schedule(id: string, dueAt: string): void {
		this.scheduler.after(Date.parse(dueAt) - this.now().getTime(), () => this.fireIfDue(id));
	}

	/** A timer of the burst: later messages moved its end, so only the timer of its last one delivers it. */
	private fireIfDue(id: string): void {
		const burst = this.store.get('bursts', id);
		if (!burst) return;
		if (Date.parse(burst.dueAt) > this.now().getTime()) {
			this.schedule(id, burst.dueAt);
			return;
		}
		this.flush(burst);
		this.onBackgroundChange();
	}

	/** Removes the burst and queues its one event, in the same change: saved together or not at all. */
	private flush(burst: BurstRecord): void {
		this.store.remove('bursts', burst.id);
		const webhook = this.store.get('webhooks', burst.webhookId);
		if (!webhook || burst.messages.length === 0) return;
		this.deliverTo(webhook, {
			id: eventIdOf(burst),
			type: 'message.received',
			createdAt: this.now().toISOString(),
			workspaceId: burst.workspaceId,
			data: gatheredData(burst),
		});
	}
}
