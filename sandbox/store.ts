import { randomBytes } from 'node:crypto';

import type {
	AnswerRecord,
	AutomationEventRecord,
	ClaimRecord,
	ClickRecord,
	ContactRecord,
	DeliveryRecord,
	GroupRecord,
	IdempotencyRecord,
	InstanceRecord,
	KeyRecord,
	LinkRecord,
	MessageRecord,
	WebhookRecord,
	Workspace,
} from './records';

export * from './records';

/**
 * The sandbox's whole state: plain records in maps, every one tagged with its workspace. It is serialised
 * as one JSON document, so a restart with a data file reloads exactly what was there.
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
	automationEvents: collection<AutomationEventRecord>(),
	answers: collection<AnswerRecord>(),
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

/** `prefix_` + 16 random hex characters. */
export function newId(prefix: string): string {
	return `${prefix}_${randomBytes(8).toString('hex')}`;
}

export class Store {
	private readonly maps = Object.fromEntries(COLLECTIONS.map((name) => [name, new Map()])) as {
		[C in CollectionName]: Map<string, Collections[C]>;
	};
	readonly idempotency = new Map<string, IdempotencyRecord>();
	/** Set by every change; the server saves the data file when it is set. */
	dirty = false;

	insert<C extends CollectionName>(collection: C, record: Collections[C]): Collections[C] {
		this.maps[collection].set(record.id, record);
		this.dirty = true;
		return record;
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
		const removed = this.maps[collection].delete(id);
		if (removed) this.dirty = true;
		return removed;
	}

	/** Marks a record changed in place (records are mutable objects held by the maps). */
	touch(): void {
		this.dirty = true;
	}

	toDocument(now: Date): StateDocument {
		return {
			format: 'multichannel-sandbox',
			version: 1,
			savedAt: now.toISOString(),
			collections: Object.fromEntries(
				COLLECTIONS.map((name) => [name, [...this.maps[name].values()]]),
			) as StateDocument['collections'],
			idempotency: [...this.idempotency.values()],
		};
	}

	static fromDocument(document: StateDocument): Store {
		if (document.format !== 'multichannel-sandbox' || document.version !== 1) {
			throw new Error('The data file is not a sandbox state file of version 1');
		}
		const store = new Store();
		for (const name of COLLECTIONS) {
			for (const record of document.collections[name] ?? []) store.insert(name, record as never);
		}
		for (const record of document.idempotency ?? []) store.idempotency.set(record.key, record);
		store.dirty = false;
		return store;
	}
}
