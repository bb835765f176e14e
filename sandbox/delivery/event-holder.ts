import type { EventEnvelope } from './delivery-engine';
import type { Scheduler } from '../scheduler';
import type { Store, WebhookRecord } from '../store/store';

/** What a holder of events for later (gathering, batching) works with. */
export interface HoldingContext {
	store: Store;
	scheduler: Scheduler;
	now: () => Date;
	/** Called after changes made by a timer, so that the data file is saved. */
	onBackgroundChange: () => void;
	/** Queues an event for one webhook, as for any event (held while the webhook is disabled). */
	queue: (webhook: WebhookRecord, event: EventEnvelope) => void;
}

/** Holds events in the store until a timer or a bound delivers them as one: gathered bursts, batches. */
export abstract class EventHolder {
	protected readonly store: Store;
	protected readonly scheduler: Scheduler;
	protected readonly now: () => Date;
	protected readonly onBackgroundChange: () => void;
	protected readonly queue: HoldingContext['queue'];

	constructor(context: HoldingContext) {
		this.store = context.store;
		this.scheduler = context.scheduler;
		this.now = context.now;
		this.onBackgroundChange = context.onBackgroundChange;
		this.queue = context.queue;
	}
}
