import {
	BATCH_EVENT_TYPES,
	BATCH_MAX_BYTES,
	BATCH_MAX_EVENTS,
} from '../../src/client/resources/batches';
import type { EventBatch } from '../../src/client/events';
import type { EventEnvelope } from './delivery-engine';
import { EventHolder, type HoldingContext } from './event-holder';
import { OpenGroups } from './open-groups';
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

/** The record of a batch's `index`-th event. */
function eventRecordIdOf(batchId: string, index: number): string {
	return `${batchId}/${index}`;
}

function isOpenBatch(record: BatchRecord | undefined): record is OpenBatchRecord {
	return record !== undefined && 'webhookId' in record;
}

export class Batching extends EventHolder {
	/** The ids of each workspace's open batches, oldest first. */
	private readonly open: OpenGroups;

	constructor(context: HoldingContext, maxOpenBatches = MAX_OPEN_BATCHES) {
		super(context);
		this.open = new OpenGroups(maxOpenBatches, (id) => {
			const batch = this.store.get('batches', id);
			if (isOpenBatch(batch)) this.flush(batch);
			return isOpenBatch(batch);
		});
	}

	/**
	 * Holds the event in the webhook's open batch when the webhook batches. A batch it would take past the byte
	 * bound goes first; one that reaches its count or the bound goes at once (an event past the bound alone, too).
	 */
	hold(webhook: WebhookRecord, event: EventEnvelope): boolean {
		const batch = webhook.batch;
		if (!batch || webhook.surface === 'workspace') return false;
		const bytes = Buffer.byteLength(JSON.stringify(event)) + 1;
		let found = this.store.get('batches', batchIdOf(webhook.id));
		if (isOpenBatch(found) && (found.bytes ?? 0) + bytes > MAX_EVENT_BYTES) {
			this.flush(found);
			found = undefined;
		}
		const open = isOpenBatch(found) ? found : this.openBatch(webhook, batch.maxWaitSeconds);
		this.open.of(open.workspaceId).add(open.id);
		this.store.insert('batches', {
			id: eventRecordIdOf(open.id, open.count),
			workspaceId: open.workspaceId,
			batchId: open.id,
			event: copyJson(event),
		});
		open.count++;
		open.bytes = (open.bytes ?? 0) + bytes;
		open.lastAt = event.createdAt;
		const full = open.count >= Math.min(batch.maxEvents, BATCH_MAX_EVENTS.max);
		if (full || open.bytes >= MAX_EVENT_BYTES) this.flush(open);
		return true;
	}

	/** After a restart: every open batch is delivered when it was due (at once if that has passed). */
	resume(): void {
		for (const batch of this.batches()) {
			this.open.of(batch.workspaceId).add(batch.id);
			this.schedule(batch);
		}
	}

	/** Drops the open batch of a deleted webhook. */
	forgetWebhook(webhookId: string): void {
		const batch = this.store.get('batches', batchIdOf(webhookId));
		if (isOpenBatch(batch)) this.remove(batch);
	}

	/** Delivers a webhook's open batch now (it no longer batches, or batches by other rules). */
	flushWebhook(webhookId: string): void {
		const batch = this.store.get('batches', batchIdOf(webhookId));
		if (isOpenBatch(batch)) this.flush(batch);
	}

	private *batches(): Iterable<OpenBatchRecord> {
		for (const record of this.store.all('batches')) if (isOpenBatch(record)) yield record;
	}

	private openBatch(webhook: WebhookRecord, maxWaitSeconds: number): OpenBatchRecord {
		this.open.makeRoom(webhook.workspaceId);
		const now = this.now();
		const batch = this.store.insert('batches', {
			id: batchIdOf(webhook.id),
			workspaceId: webhook.workspaceId,
			webhookId: webhook.id,
			eventId: newId('evt'),
			count: 0,
			bytes: 0,
			firstAt: now.toISOString(),
			lastAt: now.toISOString(),
			dueAt: new Date(now.getTime() + maxWaitSeconds * 1000).toISOString(),
		}) as OpenBatchRecord;
		this.schedule(batch);
		return batch;
	}

	private schedule({ id, eventId, dueAt }: OpenBatchRecord): void {
		this.scheduler.after(Date.parse(dueAt) - this.now().getTime(), () =>
			this.fireIfDue(id, eventId),
		);
	}

	/**
	 * The batch's timer: the batch it was set for may have gone (another may be open under the same id since,
	 * with a timer of its own); a timer that fires before the batch is due (the clock moved) is set again.
	 */
	private fireIfDue(id: string, eventId: string): void {
		const batch = this.store.get('batches', id);
		if (!isOpenBatch(batch) || batch.eventId !== eventId) return;
		if (Date.parse(batch.dueAt) > this.now().getTime()) {
			this.schedule(batch);
			return;
		}
		this.flush(batch);
		this.onBackgroundChange();
	}

	/** Removes the batch and queues its one event, in the same change: saved together or not at all. */
	private flush(batch: OpenBatchRecord): void {
		const events = this.remove(batch);
		const webhook = this.store.get('webhooks', batch.webhookId);
		if (!webhook || webhook.surface === 'workspace' || events.length === 0) return;
		const data: EventBatch = {
			count: events.length,
			events,
			firstAt: events[0].createdAt,
			lastAt: events[events.length - 1].createdAt,
		};
		this.queue(webhook, {
			id: batch.eventId,
			type: BATCH_EVENT_TYPES[webhook.surface],
			batch: true,
			createdAt: this.now().toISOString(),
			workspaceId: batch.workspaceId,
			data,
		});
	}

	/** Removes the batch and its events; answers the events, in order. */
	private remove(batch: OpenBatchRecord): Array<BatchedEventRecord['event']> {
		const events: Array<BatchedEventRecord['event']> = [];
		for (let index = 0; index < batch.count; index++) {
			const id = eventRecordIdOf(batch.id, index);
			const held = this.store.get('batches', id);
			if (held && 'event' in held) events.push(held.event);
			this.store.remove('batches', id);
		}
		this.store.remove('batches', batch.id);
		this.open.delete(batch.workspaceId, batch.id);
		return events;
	}
}
