/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the sandbox runs in plain Node, never inside n8n */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

import type { Surface } from '../src/client/api';
import type { MessageMedia } from '../src/client/resources/media';
import type { KeyKind, KeyScope } from './key-kinds';

/**
 * The sandbox's whole state: plain records in maps, every one tagged with its workspace. It is serialised
 * as one JSON document, so a restart with a data file reloads exactly what was there.
 */

export type { KeyKind };

export interface Workspace {
	id: string;
	name: string;
	createdAt: string;
}

export interface KeyRecord {
	id: string;
	workspaceId: string;
	kind: KeyKind;
	name: string;
	/** The first characters of the key, enough to recognise it in a list; never enough to use it. */
	prefix: string;
	/** sha256 of the whole key, hex: the key itself is never stored. */
	hash: string;
	scopes: KeyScope[];
	createdAt: string;
	lastUsedAt: string | null;
	revokedAt: string | null;
}

export type InstanceStatus = 'created' | 'connecting' | 'connected' | 'disconnected';

export interface InstanceRecord {
	id: string;
	workspaceId: string;
	name: string;
	description: string | null;
	status: InstanceStatus;
	phoneNumber: string | null;
	/** The pending connection attempt, while `connecting`. */
	connection: {
		method: 'qr' | 'pairing_code';
		qrCode: string | null;
		pairingCode: string | null;
		phoneNumber: string | null;
		expiresAt: string;
	} | null;
	/** Typing indicators shown now or lately, by chat id (`sendTyping`). */
	typing?: Record<string, { state: string; until: string }>;
	createdAt: string;
	updatedAt: string;
}

export interface MessageRecord {
	id: string;
	workspaceId: string;
	instanceId: string;
	chatId: string;
	direction: 'outbound' | 'inbound';
	from: string | null;
	to: string | null;
	type: string;
	/** The file of a media message; its bytes are in `core.media` while they are kept. */
	media?: MessageMedia | null;
	status: 'pending' | 'sent' | 'delivered' | 'read' | 'failed';
	content: Record<string, unknown>;
	error: { code: string; message: string } | null;
	/** Sent with `trackLinks`: each URL replaced, and its short link. */
	trackedLinks?: TrackedLinkRecord[];
	createdAt: string;
	updatedAt: string;
	/** A received tap on a button or list row of one of our interactive messages. */
	reply?: { type: 'button' | 'list'; id: string; title: string; toMessageId: string };
	editedAt?: string;
}

export interface Participant {
	phoneNumber: string;
	role: 'member' | 'admin' | 'superadmin';
}

export interface GroupRecord {
	id: string;
	workspaceId: string;
	instanceId: string;
	subject: string;
	description: string | null;
	owner: string | null;
	participants: Participant[];
	settings: { announcementsOnly: boolean; locked: boolean };
	inviteCode: string;
	createdAt: string;
	updatedAt: string;
}

export interface ContactRecord {
	id: string;
	workspaceId: string;
	instanceId: string;
	phoneNumber: string;
	name: string | null;
	email: string | null;
	tags: string[];
	blocked: boolean;
	createdAt: string;
	updatedAt: string;
}

export interface LinkRecord {
	id: string;
	workspaceId: string;
	code: string;
	url: string;
	title: string | null;
	tags: string[];
	expiresAt: string | null;
	/** Clicks by people; clicks by bots are recorded but not counted here. */
	clickCount: number;
	/** A tracked link: the message it was made for and that message's recipient. */
	messageId?: string | null;
	recipient?: string | null;
	createdAt: string;
	updatedAt: string;
}

export interface ClickRecord {
	id: string;
	workspaceId: string;
	linkId: string;
	code: string;
	clickedAt: string;
	referrer: string | null;
	country: string | null;
	device: 'desktop' | 'mobile' | 'tablet' | 'bot' | 'unknown';
	browser: string | null;
	bot: boolean;
	userAgent: string | null;
	/** Copied from a tracked link when it is clicked. */
	messageId?: string | null;
	recipient?: string | null;
}

export interface TrackedLinkRecord {
	url: string;
	shortUrl: string;
	linkId: string;
}

export interface WebhookRecord {
	id: string;
	workspaceId: string;
	/** Which key kind registered it, and so which events it may receive. */
	surface: Surface;
	url: string;
	events: string[];
	secret: string;
	filters: { instanceIds?: string[]; linkIds?: string[] };
	description: string | null;
	status: 'active' | 'disabled';
	disabledReason: string | null;
	/** Deliveries in a row that used up all their attempts; reset by any success. */
	failedDeliveries: number;
	createdAt: string;
	updatedAt: string;
}

export interface DeliveryAttempt {
	attempt: number;
	at: string;
	responseStatus: number | null;
	error: string | null;
	durationMs: number;
}

/** One event on its way to one receiver (a webhook, an answer registration); updated after each attempt. */
export interface DeliveryProgress {
	eventId: string;
	/** The exact JSON sent, so that every attempt carries the same bytes. */
	payload: string;
	/** Attempts made so far. */
	attempt: number;
	status: 'pending' | 'succeeded' | 'failed';
	responseStatus: number | null;
	error: string | null;
	updatedAt: string;
	nextAttemptAt: string | null;
	attempts: DeliveryAttempt[];
}

/** One event on its way to one webhook. */
export interface DeliveryRecord extends DeliveryProgress {
	id: string;
	workspaceId: string;
	webhookId: string;
	eventType: string;
	createdAt: string;
}

/** The first claim of an event delivered to a webhook (see the webhooks' `claimEvent`). */
export interface ClaimRecord {
	/** `<webhookId>:<eventId>`. */
	id: string;
	workspaceId: string;
	webhookId: string;
	eventId: string;
	/** The delivery request the claim was made for, when the receiver named it. */
	deliveryId?: string | null;
	claimedAt: string;
}

/** A one-shot wait for the answer to a message (the `answers` resource). */
export interface AnswerRecord {
	id: string;
	workspaceId: string;
	instanceId: string;
	messageId: string;
	chatId: string;
	accepts: Array<'reply' | 'text'>;
	url: string;
	secret: string;
	expiresAt: string;
	createdAt: string;
	/** Set when the answer came: its delivery to `url`. */
	delivery: DeliveryProgress | null;
}

export interface AutomationEventRecord {
	id: string;
	workspaceId: string;
	name: string;
	type: string;
	payload: Record<string, unknown>;
	occurredAt: string;
	createdAt: string;
}

export interface IdempotencyRecord {
	/** workspace, key kind and the client's Idempotency-Key. */
	key: string;
	/** Hash of method, path and the validated input: another body under the same key is a 409. */
	fingerprint: string;
	status: number;
	body: unknown;
	createdAtMs: number;
}

export interface Collections {
	workspaces: Workspace;
	keys: KeyRecord;
	instances: InstanceRecord;
	messages: MessageRecord;
	groups: GroupRecord;
	contacts: ContactRecord;
	links: LinkRecord;
	clicks: ClickRecord;
	webhooks: WebhookRecord;
	deliveries: DeliveryRecord;
	claims: ClaimRecord;
	automationEvents: AutomationEventRecord;
	answers: AnswerRecord;
}

export type CollectionName = keyof Collections;

const COLLECTIONS: CollectionName[] = [
	'workspaces',
	'keys',
	'instances',
	'messages',
	'groups',
	'contacts',
	'links',
	'clicks',
	'webhooks',
	'deliveries',
	'claims',
	'automationEvents',
	'answers',
];

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

/** Reads a state file; undefined when it does not exist yet. */
export function loadStateFile(file: string): StateDocument | undefined {
	let text: string | undefined;
	let failure: NodeJS.ErrnoException | undefined;
	try {
		text = readFileSync(file, 'utf8');
	} catch (error) {
		failure = error as NodeJS.ErrnoException;
	}
	if (failure?.code === 'ENOENT') return undefined;
	if (failure) throw failure;
	return JSON.parse(text as string) as StateDocument;
}

/**
 * Writes the state to a temporary file beside the data file, then renames it over the data file: a crash
 * leaves either the old file or the new one, never half of one.
 */
export function saveStateFile(file: string, document: StateDocument): void {
	mkdirSync(dirname(file), { recursive: true });
	const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
	writeFileSync(temporary, JSON.stringify(document), { mode: 0o600 });
	renameSync(temporary, file);
}
