import type { EventEnvelope } from './delivery-engine';
import { OpenGroups } from './open-groups';
import type { Scheduler } from '../scheduler';
import type { BatchRecord, BurstRecord, Store, WebhookRecord } from '../store/store';

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

/** What every open group of held events keeps (a gathered burst, a batch). */
export interface HeldGroup {
	id: string;
	workspaceId: string;
	webhookId: string;
	/** The id its one event is delivered under, drawn when it opened. */
	eventId: string;
	/** Items held: the records `<id>/0` … `<id>/<count - 1>`. */
	count: number;
	/** When its timer delivers it. */
	dueAt: string;
}

/** A collection of held events: its open groups and the items they hold. */
type Shelf = 'bursts' | 'batches';
type ShelfRecord = BurstRecord | BatchRecord;

/** The record of a group's `index`-th item. */
export function itemIdOf(groupId: string, index: number): string {
	return `${groupId}/${index}`;
}

/**
 * Holds events in the store until a timer or a bound delivers them as one: gathered bursts, batches. A group is a
 * record found by its id (made from what it groups by, so no scan), and each item it holds is a record of its own,
 * so that holding one more writes that item alone. The open groups of each workspace are known oldest first, so
 * one more than the bound delivers the oldest at once. Groups are records of the store, so a restart finds them
 * and their timers start again; the group's event id is drawn when it opens, so a group sent again after a crash
 * carries the same id and the receiver's claim keeps it from running twice. What a group holds, when it is due
 * and which event it becomes is the holder's own.
 */
export abstract class EventHolder<G extends HeldGroup & ShelfRecord, V> {
	protected readonly store: Store;
	protected readonly scheduler: Scheduler;
	protected readonly now: () => Date;
	protected readonly onBackgroundChange: () => void;
	protected readonly queue: HoldingContext['queue'];
	/** The ids of each workspace's open groups, oldest first. */
	protected readonly open: OpenGroups;

	constructor(
		context: HoldingContext,
		private readonly shelf: Shelf,
		/** Open groups per workspace; one more delivers that workspace's oldest at once. */
		maxOpen: number,
	) {
		this.store = context.store;
		this.scheduler = context.scheduler;
		this.now = context.now;
		this.onBackgroundChange = context.onBackgroundChange;
		this.queue = context.queue;
		this.open = new OpenGroups(maxOpen, (id) => {
			const group = this.find(id);
			if (group) this.flush(group);
			return group !== undefined;
		});
	}

	/** The record keeping one item of a group. */
	protected abstract itemRecord(group: G, id: string, value: V): ShelfRecord;
	/** What an item record keeps. */
	protected abstract valueOf(record: ShelfRecord): V | undefined;
	/** The one event a group's items become; none when its webhook no longer takes it. */
	protected abstract eventOf(
		group: G,
		items: V[],
		webhook: WebhookRecord,
	): EventEnvelope | undefined;

	/** After a restart: every open group is delivered when it was due (at once if that has passed). */
	resume(): void {
		for (const group of this.groups()) {
			this.open.of(group.workspaceId).add(group.id);
			this.schedule(group);
		}
	}

	/** Drops the groups of a deleted webhook. */
	forgetWebhook(webhookId: string): void {
		for (const group of [...this.groupsOf(webhookId)]) this.remove(group);
	}

	/** Delivers a webhook's groups now (it no longer holds events, or holds them by other rules). */
	flushWebhook(webhookId: string): void {
		for (const group of [...this.groupsOf(webhookId)]) this.flush(group);
	}

	/** Whether a record of the shelf is an open group, not an item it holds: only a group names its webhook. */
	private isGroup(record: ShelfRecord | undefined): record is G {
		return record !== undefined && 'webhookId' in record;
	}

	protected find(id: string): G | undefined {
		const record = this.store.get(this.shelf, id);
		return this.isGroup(record) ? record : undefined;
	}

	protected *groups(): Iterable<G> {
		for (const record of this.store.all(this.shelf)) if (this.isGroup(record)) yield record;
	}

	/** The open groups of a webhook. */
	protected *groupsOf(webhookId: string): Iterable<G> {
		for (const group of this.groups()) if (group.webhookId === webhookId) yield group;
	}

	/** Keeps a new group; when one more would pass the bound, the workspace's oldest is delivered first. */
	protected openGroup(group: G): G {
		this.open.makeRoom(group.workspaceId);
		return this.store.insert(this.shelf, group) as G;
	}

	/** Holds one more item in the group. */
	protected add(group: G, value: V): void {
		this.open.of(group.workspaceId).add(group.id);
		this.store.insert(this.shelf, this.itemRecord(group, itemIdOf(group.id, group.count), value));
		group.count++;
	}

	protected schedule({ id, eventId, dueAt }: G): void {
		this.scheduler.after(Date.parse(dueAt) - this.now().getTime(), () =>
			this.fireIfDue(id, eventId),
		);
	}

	/**
	 * The group's timer: the group it was set for may have gone (another may be open under the same id since, with
	 * a timer of its own); one that fires before the group is due (its end moved, or the clock) is set again.
	 */
	private fireIfDue(id: string, eventId: string): void {
		const group = this.find(id);
		if (!group || group.eventId !== eventId) return;
		if (Date.parse(group.dueAt) > this.now().getTime()) {
			this.schedule(group);
			return;
		}
		this.flush(group);
		this.onBackgroundChange();
	}

	/** Removes the group and queues its one event, in the same change: saved together or not at all. */
	protected flush(group: G): void {
		const items = this.remove(group);
		const webhook = this.store.get('webhooks', group.webhookId);
		if (!webhook || items.length === 0) return;
		const event = this.eventOf(group, items, webhook);
		if (event) this.queue(webhook, event);
	}

	/** Removes the group and its items; answers what they kept, in order. */
	protected remove(group: G): V[] {
		const items: V[] = [];
		for (let index = 0; index < group.count; index++) {
			const id = itemIdOf(group.id, index);
			const record = this.store.get(this.shelf, id);
			const value = record && this.valueOf(record);
			if (value !== undefined) items.push(value);
			this.store.remove(this.shelf, id);
		}
		this.store.remove(this.shelf, group.id);
		this.open.delete(group.workspaceId, group.id);
		return items;
	}
}
