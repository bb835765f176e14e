import {
	BATCH_EVENT_TYPES,
	BATCH_MAX_BYTES,
	BATCH_MAX_EVENTS,
} from '../../src/client/resources/batches';
import type { EventBatch } from '../../src/client/events';
import type { EventEnvelope } from './delivery-engine';
import { EventHolder, type HoldingContext } from './event-holder';
import { copyJson } from '../store/tracked';
import {
	newId,
	type BatchedEventRecord,
	type BatchRecord,
	type OpenBatchRecord,
	type WebhookRecord,
} from '../store/store';

/**
 * Batched deliveries: for a short-link or automation webhook registered with `batch`, its events (after its
 * filters) are held in one open batch per webhook until it holds `maxEvents` or `maxWaitSeconds` have passed
 * since its first event; then they go out as one event of their own (`batch: true`, `data.events` in order).
 * Batches are records of the store, so a restart finds an open batch and its timer starts again; once flushed,
 * a batch is one delivery like any other: signed, claimed once, redelivered whole, resumed after a restart.
 * The batch's event id is drawn when it opens, so a batch sent again after a crash carries the same id and the
 * receiver's claim keeps it from running twice.
 *
 * What an event costs does not grow with what is open: a webhook's open batch has an id made from the webhook's
 * (found without a scan), and each held event is a record of its own (a hold writes that event alone).
 */

/** Open batches per workspace; one more delivers that workspace's oldest at once. */
export const MAX_OPEN_BATCHES = 1_000;
/** What a batch event's body holds beside its events (id, type, times, count), with room to spare. */
const ENVELOPE_BYTES = 1024;
/** The events a batch holds, in bytes of JSON (a comma each), stay within this. */
const MAX_EVENT_BYTES = BATCH_MAX_BYTES - ENVELOPE_BYTES;

/** The id of a webhook's open batch. */
function batchIdOf(webhookId: string): string {
	return `bat_${webhookId}`;
}

type HeldEvent = BatchedEventRecord['event'];

export class Batching extends EventHolder<OpenBatchRecord, HeldEvent> {
	constructor(context: HoldingContext, maxOpenBatches = MAX_OPEN_BATCHES) {
		super(context, 'batches', maxOpenBatches);
	}

	/**
	 * Holds the event in the webhook's open batch when the webhook batches. A batch it would take past the byte
	 * bound goes first; one that reaches its count or the bound goes at once (an event past the bound alone, too).
	 */
	hold(webhook: WebhookRecord, event: EventEnvelope): boolean {
		const batch = webhook.batch;
		if (!batch || webhook.surface === 'workspace') return false;
		const bytes = Buffer.byteLength(JSON.stringify(event)) + 1;
		let found = this.find(batchIdOf(webhook.id));
		if (found && (found.bytes ?? 0) + bytes > MAX_EVENT_BYTES) {
			this.flush(found);
			found = undefined;
		}
		const open = found ?? this.openBatch(webhook, batch.maxWaitSeconds);
		this.add(open, copyJson(event));
		open.bytes = (open.bytes ?? 0) + bytes;
		open.lastAt = event.createdAt;
		const full = open.count >= Math.min(batch.maxEvents, BATCH_MAX_EVENTS.max);
		if (full || open.bytes >= MAX_EVENT_BYTES) this.flush(open);
		return true;
	}

	/** A webhook has at most one open batch, found by its id. */
	protected *groupsOf(webhookId: string): Iterable<OpenBatchRecord> {
		const batch = this.find(batchIdOf(webhookId));
		if (batch) yield batch;
	}

	protected itemRecord(batch: OpenBatchRecord, id: string, event: HeldEvent): BatchedEventRecord {
		return { id, workspaceId: batch.workspaceId, batchId: batch.id, event };
	}

	protected valueOf(record: BatchRecord): HeldEvent | undefined {
		return 'event' in record ? record.event : undefined;
	}

	protected eventOf(
		batch: OpenBatchRecord,
		events: HeldEvent[],
		webhook: WebhookRecord,
	): EventEnvelope | undefined {
		if (webhook.surface === 'workspace') return undefined;
		const data: EventBatch = {
			count: events.length,
			events,
			firstAt: events[0].createdAt,
			lastAt: events[events.length - 1].createdAt,
		};
		return {
			id: batch.eventId,
			type: BATCH_EVENT_TYPES[webhook.surface],
			batch: true,
			createdAt: this.now().toISOString(),
			workspaceId: batch.workspaceId,
			data,
		};
	}

	private openBatch(webhook: WebhookRecord, maxWaitSeconds: number): OpenBatchRecord {
		const now = this.now();
		const batch = this.openGroup({
			id: batchIdOf(webhook.id),
			workspaceId: webhook.workspaceId,
			webhookId: webhook.id,
			eventId: newId('evt'),
			count: 0,
			bytes: 0,
			firstAt: now.toISOString(),
			lastAt: now.toISOString(),
			dueAt: new Date(now.getTime() + maxWaitSeconds * 1000).toISOString(),
		});
		this.schedule(batch);
		return batch;
	}
}
