import { randomBytes } from 'node:crypto';

import type {
	AnswerRecord,
	AutomationEventRecord,
	BatchRecord,
	BurstRecord,
	CallRecord,
	CampaignRecipientRecord,
	CampaignRecord,
	ChatLabelRecord,
	ClaimRecord,
	ClickRecord,
	ContactRecord,
	DeliveryRecord,
	GroupRecord,
	HandOverRecord,
	IdempotencyRecord,
	InstanceRecord,
	KeyRecord,
	LabelRecord,
	LinkRecord,
	MessageRecord,
	OptOutRecord,
	ScheduledMessageRecord,
	StatusRecord,
	UsedSignatureRecord,
	WebhookRecord,
	Workspace,
} from './records';
import { DeliveryIndex } from './delivery-index';
import { MessageIndex } from './message-index';
import { RecipientIndex } from './recipient-index';
import { copyJson, tracked, untracked } from './tracked';

export * from './records';

/**
 * The sandbox's whole state: plain records in maps, every one tagged with its workspace. The store knows
 * which records changed since the last save (they report their writes: tracked.ts) and how each was before,
 * so a save writes only those, and a change that cannot be saved is undone (`rollback`).
 */

/** A collection's declaration: its value carries only the type of its records. */
function collection<T extends { id: string }>(): T[] {
	return [];
}

/** Every collection of the state, declared once: the maps, the data file and loading all follow from it. */
const COLLECTION_TYPES = {
	workspaces: collection<Workspace>(),
	keys: collection<KeyRecord>(),
	instances: collection<InstanceRecord>(),
	messages: collection<MessageRecord>(),
	groups: collection<GroupRecord>(),
	contacts: collection<ContactRecord>(),
	links: collection<LinkRecord>(),
	clicks: collection<ClickRecord>(),
	webhooks: collection<WebhookRecord>(),
	deliveries: collection<DeliveryRecord>(),
	claims: collection<ClaimRecord>(),
	usedSignatures: collection<UsedSignatureRecord>(),
	automationEvents: collection<AutomationEventRecord>(),
	answers: collection<AnswerRecord>(),
	bursts: collection<BurstRecord>(),
	batches: collection<BatchRecord>(),
	calls: collection<CallRecord>(),
	scheduledMessages: collection<ScheduledMessageRecord>(),
	labels: collection<LabelRecord>(),
	chatLabels: collection<ChatLabelRecord>(),
	statuses: collection<StatusRecord>(),
	campaigns: collection<CampaignRecord>(),
	campaignRecipients: collection<CampaignRecipientRecord>(),
	optOuts: collection<OptOutRecord>(),
	handOvers: collection<HandOverRecord>(),
};

export type CollectionName = keyof typeof COLLECTION_TYPES;
export type Collections = { [C in CollectionName]: (typeof COLLECTION_TYPES)[C][number] };

const COLLECTIONS = Object.keys(COLLECTION_TYPES) as CollectionName[];

export interface StateDocument {
	format: 'multichannel-sandbox';
	version: 1;
	savedAt: string;
	collections: { [C in CollectionName]: Array<Collections[C]> };
	idempotency: IdempotencyRecord[];
}

/** The idempotency records are kept beside the collections, under this name in a change. */
export type ChangedName = CollectionName | 'idempotency';

/** A record as it is now (undefined: removed), one per changed record. */
export interface Change {
	collection: ChangedName;
	id: string;
	record: object | undefined;
}

/** `prefix_` + 16 random hex characters. */
export function newId(prefix: string): string {
	return `${prefix}_${randomBytes(8).toString('hex')}`;
}

export class Store {
	private readonly maps = Object.fromEntries(COLLECTIONS.map((name) => [name, new Map()])) as {
		[C in CollectionName]: Map<string, Collections[C]>;
	};
	private readonly idempotencyRecords = new Map<string, IdempotencyRecord>();
	/** Every record changed since the last `commit`, with a copy of it as it was then (undefined: absent). */
	private readonly before = new Map<
		string,
		{ collection: ChangedName; id: string; record: object | undefined }
	>();

	/** The messages by instance and chat, for lists that cost what they return. */
	readonly messageIndex = new MessageIndex();
	/** The webhook deliveries by webhook and event, for claims that cost what they touch. */
	readonly deliveryIndex = new DeliveryIndex();
	/** Each campaign's recipients by number. */
	readonly recipientIndex = new RecipientIndex();
	/** While a snapshot is taken: each record changed since, as it was then (undefined: absent). */
	private frozen: Map<string, object | undefined> | undefined;

	/** Whether anything changed since the last save. */
	get dirty(): boolean {
		return this.before.size > 0;
	}

	insert<C extends CollectionName>(collection: C, record: Collections[C]): Collections[C] {
		this.noteChange(collection, record.id);
		return this.put(collection, untracked(record));
	}

	get<C extends CollectionName>(collection: C, id: string): Collections[C] | undefined {
		return this.maps[collection].get(id);
	}

	/** A record of this workspace, or undefined: another workspace's id is as unknown as a made-up one. */
	find<C extends Exclude<CollectionName, 'workspaces'>>(
		collection: C,
		workspaceId: string,
		id: string,
	): Collections[C] | undefined {
		const record = this.maps[collection].get(id) as
			| (Collections[C] & { workspaceId: string })
			| undefined;
		return record?.workspaceId === workspaceId ? record : undefined;
	}

	/** Records in insertion (creation) order. */
	all<C extends CollectionName>(
		collection: C,
		predicate?: (record: Collections[C]) => boolean,
	): Array<Collections[C]> {
		const records = [...this.maps[collection].values()];
		return predicate ? records.filter(predicate) : records;
	}

	/** Records in insertion order, without copying them; removing the current one while iterating is safe. */
	values<C extends CollectionName>(collection: C): IterableIterator<Collections[C]> {
		return this.maps[collection].values();
	}

	remove<C extends CollectionName>(collection: C, id: string): boolean {
		if (!this.maps[collection].has(id)) return false;
		this.noteChange(collection, id);
		this.unindex(collection, id);
		return this.maps[collection].delete(id);
	}

	/** The answers of idempotent requests by key, oldest first. */
	get idempotency(): ReadonlyMap<string, IdempotencyRecord> {
		return this.idempotencyRecords;
	}

	/** Keeps an answer under its key, as the newest. */
	remember(record: IdempotencyRecord): void {
		this.noteChange('idempotency', record.key);
		// Deleted first so that the map stays in the order the records were made.
		this.idempotencyRecords.delete(record.key);
		this.idempotencyRecords.set(record.key, record);
	}

	forget(key: string): void {
		if (!this.idempotencyRecords.has(key)) return;
		this.noteChange('idempotency', key);
		this.idempotencyRecords.delete(key);
	}

	/** Every record kept (idempotency records last), as a change that would make it. */
	*records(): Iterable<Change> {
		for (const collection of COLLECTIONS) {
			for (const record of this.maps[collection].values()) {
				yield { collection, id: record.id, record: untracked(record) };
			}
		}
		for (const record of this.idempotencyRecords.values()) {
			yield { collection: 'idempotency', id: record.key, record };
		}
	}

	/** Makes a change read back from the data file: the state it makes is the saved state. */
	apply({ collection, id, record }: Change): void {
		if (collection === 'idempotency') {
			// Deleted first, as `remember` does: the map stays in the order the records were made.
			this.idempotencyRecords.delete(id);
			if (record) this.idempotencyRecords.set(id, record as IdempotencyRecord);
		} else if (record) {
			this.put(collection, record as never);
		} else {
			this.unindex(collection, id);
			this.maps[collection].delete(id);
		}
	}

	/**
	 * Every record as it is now, read at leisure: a record changed or removed after this call is read as it
	 * was at it (copied before its first change), one made after it is not read. One snapshot at a time, taken
	 * between two saves; `release` when done.
	 */
	freeze(): { records: Iterable<Change>; release(): void } {
		if (this.frozen) throw new Error('A snapshot is being taken already');
		if (this.dirty) throw new Error('A snapshot is taken of saved changes only');
		const frozen = (this.frozen = new Map<string, object | undefined>());
		const held = COLLECTIONS.map((collection) => ({
			collection,
			records: [...this.maps[collection].values()] as Array<{ id: string }>,
		}));
		const idempotency = [...this.idempotencyRecords.values()];
		function* records(): Iterable<Change> {
			for (const { collection, records: list } of held) {
				for (const record of list) {
					const key = `${collection}/${record.id}`;
					const then = frozen.has(key) ? frozen.get(key) : untracked(record);
					if (then) yield { collection, id: record.id, record: then };
				}
			}
			for (const record of idempotency) {
				const key = `idempotency/${record.key}`;
				const then = frozen.has(key) ? frozen.get(key) : record;
				if (then) yield { collection: 'idempotency', id: record.key, record: then };
			}
		}
		return {
			records: records(),
			release: () => {
				if (this.frozen === frozen) this.frozen = undefined;
			},
		};
	}

	/** Every record changed since the last `commit`, as it is now. */
	changes(): Change[] {
		return [...this.before.values()].map(({ collection, id }) => ({
			collection,
			id,
			record: untracked(this.current(collection, id)),
		}));
	}

	/** The changes are saved: from now on they are the state to go back to. */
	commit(): void {
		this.before.clear();
	}

	/** Puts every record changed since the last `commit` back as it was then. */
	rollback(): void {
		for (const { collection, id, record } of this.before.values()) {
			if (collection === 'idempotency') {
				if (record) this.idempotencyRecords.set(id, record as IdempotencyRecord);
				else this.idempotencyRecords.delete(id);
				continue;
			}
			const map = this.maps[collection] as Map<string, object>;
			const current = map.get(id);
			if (!record) {
				this.unindex(collection, id);
				map.delete(id);
			} else if (current) {
				// In place, so that whoever holds the record sees it as it was.
				replaceContents(untracked(current), record);
				this.index(collection, current);
			} else {
				this.put(collection, record as never);
			}
		}
		this.before.clear();
	}

	toDocument(now: Date): StateDocument {
		return {
			format: 'multichannel-sandbox',
			version: 1,
			savedAt: now.toISOString(),
			collections: Object.fromEntries(
				COLLECTIONS.map((name) => [name, [...this.maps[name].values()].map(untracked)]),
			) as StateDocument['collections'],
			idempotency: [...this.idempotencyRecords.values()],
		};
	}

	/** Whether a name read from the data file is that of a collection, or the idempotency records'. */
	static isChangedName(name: string): name is ChangedName {
		return name === 'idempotency' || (COLLECTIONS as string[]).includes(name);
	}

	static fromDocument(document: StateDocument): Store {
		if (document.format !== 'multichannel-sandbox' || document.version !== 1) {
			throw new Error('The data file is not a sandbox state file of version 1');
		}
		const store = new Store();
		for (const name of COLLECTIONS) {
			for (const record of document.collections[name] ?? []) store.insert(name, record as never);
		}
		for (const record of document.idempotency ?? []) store.remember(record);
		store.commit();
		return store;
	}

	private current(collection: ChangedName, id: string): object | undefined {
		return collection === 'idempotency'
			? this.idempotencyRecords.get(id)
			: this.maps[collection].get(id);
	}

	/** A record kept as the newest (or in its place, if its id is kept already), tracked. */
	private put<C extends CollectionName>(collection: C, raw: Collections[C]): Collections[C] {
		const kept = this.track(collection, raw);
		this.maps[collection].set(raw.id, kept);
		this.index(collection, kept);
		return kept;
	}

	/** A record stored, or changed in place: the indexes of its collection follow. */
	private index(collection: CollectionName, record: object): void {
		if (collection === 'messages') this.messageIndex.put(record as MessageRecord);
		else if (collection === 'deliveries') this.deliveryIndex.put(record as DeliveryRecord);
		else if (collection === 'campaignRecipients') {
			this.recipientIndex.put(record as CampaignRecipientRecord);
		}
	}

	private unindex(collection: CollectionName, id: string): void {
		if (collection === 'messages') this.messageIndex.delete(id);
		else if (collection === 'deliveries') this.deliveryIndex.delete(id);
		else if (collection === 'campaignRecipients') {
			this.recipientIndex.delete(this.maps.campaignRecipients.get(id));
		}
	}

	/** Before the first change to a record since the last commit (or snapshot): a copy of it as it is. */
	private noteChange(collection: ChangedName, id: string): void {
		const key = `${collection}/${id}`;
		if (this.frozen && !this.frozen.has(key)) {
			const current = this.current(collection, id);
			this.frozen.set(key, current === undefined ? undefined : copyJson(untracked(current)));
		}
		if (this.before.has(key)) return;
		const current = this.current(collection, id);
		this.before.set(key, {
			collection,
			id,
			record: current === undefined ? undefined : copyJson(untracked(current)),
		});
	}

	private track<T extends object>(collection: CollectionName, record: T): T {
		const id = (record as { id: string }).id;
		return tracked(record, () => this.noteChange(collection, id));
	}
}

/** Makes `target` hold exactly what `source` holds. */
function replaceContents(target: object, source: object): void {
	for (const key of Object.keys(target)) delete (target as Record<string, unknown>)[key];
	Object.assign(target, source);
}
