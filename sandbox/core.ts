import { eventSubject, type EventSubject, type EventType } from '../src/client/events';
import { WebhookDeliveries } from './delivery/deliveries';
import {
	DeliveryEngine,
	envelope,
	type DeliveryOptions,
	type DeliverySaves,
	type EventEnvelope,
} from './delivery/delivery-engine';
import type { GatheringLimits } from './delivery/gathering';
import { Leases } from './delivery/leases';
import { DEFAULT_MEDIA_LIMITS, MediaStore, type MediaLimits } from './files/media';
import { Outbound, type OutboundOptions } from './outbound/outbound';
import { DEFAULT_SCHEDULED_LIMITS, type ScheduledLimits } from './scheduled-limits';
import { Scheduler } from './scheduler';
import { SignedMediaUrls } from './files/signed-media';
import { handOverIdOf, type MessageRecord, type Store } from './store/store';
import { WebhookUpkeep } from './delivery/webhook-upkeep';

/** How fast the simulated channel moves. */
export interface SimulationOptions {
	/** After `message.sent`, the recipient's phone acknowledges (`message.delivered`, or `message.failed`). */
	deliveredAfterMs: number;
	/** After `message.delivered`, the recipient reads it (`message.read`). */
	readAfterMs: number;
	/** How long a QR or pairing code from `connect` can be scanned. */
	connectCodeTtlMs: number;
	/** How long a call rings before it is missed. */
	callRingMs: number;
}

export const DEFAULT_SIMULATION: SimulationOptions = {
	deliveredAfterMs: 500,
	readAfterMs: 1500,
	connectCodeTtlMs: 60_000,
	callRingMs: 30_000,
};

/**
 * What the handlers share: the state, the clock, the timers, the event fan-out and the public base URL
 * (known only once the server listens).
 */
export class SandboxCore {
	baseUrl = '';
	/** The bytes of media messages (their descriptions are kept with the messages). */
	readonly media: MediaStore;
	readonly scheduler: Scheduler;
	/** Where deliveries and file fetches may connect, and the agents that check each connection. */
	readonly outbound: Outbound;
	/** Sends, signs and retries every delivery (to webhooks, to answer registrations). */
	readonly engine: DeliveryEngine;
	readonly deliveries: WebhookDeliveries;
	/** Pings disabled webhooks and drops what is kept past its time. */
	readonly upkeep: WebhookUpkeep;
	/** Retries, grace and retention of deliveries. */
	readonly deliveryOptions: DeliveryOptions;
	/** The short-lived URLs of files that deliveries carry. */
	readonly signedMedia = new SignedMediaUrls(
		() => this.baseUrl,
		() => this.clock(),
	);
	/**
	 * Events a sandbox-only call said were delivered to a webhook by someone else (a benchmark posting signed
	 * deliveries itself), as `<webhookId>:<eventId>`, so that they may be claimed; in memory only.
	 */
	readonly announcedEvents = new Set<string>();
	/**
	 * Told of each message received and each change of a message's status (campaigns follow their recipients'
	 * messages this way: the channel does not know them).
	 */
	readonly messageWatchers: Array<(message: MessageRecord) => void> = [];
	/** Every event emitted since start, newest last: lets tests and tools see what happened. */
	readonly emitted: EventEnvelope[] = [];
	/** Scheduled sends: how many are kept per workspace, how often due ones are looked for (scheduled.ts). */
	scheduledLimits: ScheduledLimits = DEFAULT_SCHEDULED_LIMITS;

	constructor(
		readonly store: Store,
		readonly simulation: SimulationOptions,
		delivery: DeliveryOptions,
		private readonly clock: () => number,
		/** Called after changes made outside a request (timers), so the data file is saved. */
		readonly onBackgroundChange: () => void,
		/** Saving now, before an event is announced (delivery-engine.ts). */
		saves: DeliverySaves,
		onError: (error: unknown) => void,
		mediaLimits: MediaLimits = DEFAULT_MEDIA_LIMITS,
		outbound: OutboundOptions = {},
		gathering?: GatheringLimits,
	) {
		this.deliveryOptions = delivery;
		this.outbound = new Outbound(outbound);
		this.media = new MediaStore(mediaLimits, () => this.clock());
		this.scheduler = new Scheduler(onError);
		this.engine = new DeliveryEngine(
			this.scheduler,
			delivery,
			() => this.now(),
			onBackgroundChange,
			saves,
			new Leases(store),
			this.outbound.deliveries,
			(payload) => this.signedMedia.stamp(payload),
		);
		this.deliveries = new WebhookDeliveries(
			store,
			this.engine,
			delivery,
			() => this.now(),
			this.scheduler,
			onBackgroundChange,
			gathering,
		);
		this.upkeep = new WebhookUpkeep(
			store,
			this.engine,
			this.deliveries,
			delivery,
			() => this.now(),
			this.scheduler,
			onBackgroundChange,
		);
	}

	now(): Date {
		return new Date(this.clock());
	}

	emit(
		workspaceId: string,
		type: EventType,
		data: unknown,
		subject: EventSubject = eventSubject(type, data),
	): EventEnvelope {
		const event = envelope(workspaceId, type, this.markedHandedOver(type, data), this.now());
		this.emitted.push(event);
		if (this.emitted.length > 1000) this.emitted.shift();
		this.deliveries.deliver(event, subject);
		return event;
	}

	/** A message event of a chat handed over to a person says so (`handedOver: true`), whoever emits it. */
	private markedHandedOver(type: EventType, data: unknown): unknown {
		if (!type.startsWith('message.') || data === null || typeof data !== 'object') return data;
		const { instanceId, chatId } = data as { instanceId?: unknown; chatId?: unknown };
		if (typeof instanceId !== 'string' || typeof chatId !== 'string') return data;
		const handedOver = this.store.get('handOvers', handOverIdOf(instanceId, chatId));
		return handedOver ? { ...data, handedOver: true } : data;
	}
}
