import { createHash, randomBytes } from 'crypto';

import {
	API_SCOPES,
	KEY_KINDS,
	KEY_PREFIXES,
	KIND_SCOPES,
	MANAGE_KEYS,
	type KeyScope,
} from './key-kinds';
import { newId, type KeyKind, type KeyRecord, type Store, type Workspace } from './store';

/**
 * API keys: `mcw_…` (workspace: models and messaging), `mcl_…` (short links), `mca_…` (automation). Only a
 * sha256 of each key is stored; the key itself is returned once, when it is made. The prefixes are the ones
 * the client's redaction recognises. A new key holds the API scopes of its kind unless others are asked for;
 * the seeded workspace key also holds `keys:manage`, so the console can be used from the first start.
 */

export function hashKey(key: string): string {
	return createHash('sha256').update(key).digest('hex');
}

export interface IssuedKey {
	record: KeyRecord;
	/** The plaintext key: shown once, never stored. */
	key: string;
}

export function issueKey(
	store: Store,
	options: { workspaceId: string; kind: KeyKind; name?: string; scopes?: KeyScope[]; now: Date },
): IssuedKey {
	const allowed = KIND_SCOPES[options.kind];
	const scopes = options.scopes ?? API_SCOPES[options.kind];
	const foreign = scopes.filter((scope) => !allowed.includes(scope));
	if (scopes.length === 0 || foreign.length > 0) {
		throw new Error(
			`A ${options.kind} key takes the scopes ${allowed.join(', ')}; got ${scopes.join(', ') || 'none'}`,
		);
	}
	const key = `${KEY_PREFIXES[options.kind]}${randomBytes(24).toString('base64url')}`;
	const record: KeyRecord = {
		id: newId('key'),
		workspaceId: options.workspaceId,
		kind: options.kind,
		name: options.name ?? `${options.kind} key`,
		prefix: key.slice(0, 12),
		hash: hashKey(key),
		scopes: [...new Set(scopes)],
		createdAt: options.now.toISOString(),
		lastUsedAt: null,
		revokedAt: null,
	};
	store.insert('keys', record);
	return { record, key };
}

/** The key record a bearer token stands for, revoked ones included (the caller decides). */
export function findKey(store: Store, key: string): KeyRecord | undefined {
	const hash = hashKey(key);
	return store.all('keys').find((record) => record.hash === hash);
}

export function revokeKey(
	store: Store,
	workspaceId: string,
	keyId: string,
	now: Date,
): KeyRecord | undefined {
	const record = store.find('keys', workspaceId, keyId);
	if (record && !record.revokedAt) {
		record.revokedAt = now.toISOString();
	}
	return record;
}

export interface SeededWorkspace {
	workspace: Workspace;
	keys: Record<KeyKind, string>;
}

/** A workspace with one key of each kind, each with every scope of its kind (the workspace key: keys:manage too). */
export function createWorkspace(store: Store, name: string, now: Date): SeededWorkspace {
	const workspace: Workspace = { id: newId('ws'), name, createdAt: now.toISOString() };
	store.insert('workspaces', workspace);
	const keys = Object.fromEntries(
		KEY_KINDS.map((kind) => [
			kind,
			issueKey(store, {
				workspaceId: workspace.id,
				kind,
				name: `Default ${kind} key`,
				scopes: KIND_SCOPES[kind],
				now,
			}).key,
		]),
	) as Record<KeyKind, string>;
	return { workspace, keys };
}

/**
 * State written before `keys:manage` existed, when any key managed keys: in each workspace without a key
 * holding it, the active workspace keys with every API scope of their kind are given it, so the console keeps
 * working after an upgrade. Answers whether anything changed.
 */
export function grantKeyManagementToFullKeys(store: Store): boolean {
	let changed = false;
	for (const workspace of store.all('workspaces')) {
		const keys = store.all('keys', (key) => key.workspaceId === workspace.id);
		if (keys.some((key) => key.scopes.includes(MANAGE_KEYS))) continue;
		for (const key of keys) {
			const full = API_SCOPES.workspace.every((scope) => key.scopes.includes(scope));
			if (key.kind !== 'workspace' || key.revokedAt || !full) continue;
			key.scopes = [...key.scopes, MANAGE_KEYS];
			changed = true;
		}
	}
	return changed;
}
