import { createHash, randomBytes } from 'crypto';

import {
	API_SCOPES,
	KEY_KINDS,
	KEY_PREFIXES,
	KIND_SCOPES,
	MANAGE_KEYS,
	scopeProblems,
	type KeyScope,
} from './key-kinds';
import { HttpError } from '../errors';
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
	const scopes = options.scopes ?? API_SCOPES[options.kind];
	const problems = [...scopeProblems(options.kind, scopes).values()];
	if (scopes.length === 0 || problems.length > 0) {
		throw new Error(
			`A ${options.kind} key cannot hold ${scopes.join(', ') || 'no scope'}: ${problems.join('; ')}`,
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

const KEY_KIND_WORDS: Record<KeyKind, string> = {
	workspace: 'workspace',
	shortLink: 'short-link',
	automation: 'automation',
};

/**
 * A workspace with one key of each kind, each with every scope of its kind: the workspace key also manages
 * keys and holds the other kinds' scopes, so it can grant every scope.
 */
export function createWorkspace(store: Store, name: string, now: Date): SeededWorkspace {
	const workspace: Workspace = { id: newId('ws'), name, createdAt: now.toISOString() };
	store.insert('workspaces', workspace);
	const keys = Object.fromEntries(
		KEY_KINDS.map((kind) => [
			kind,
			issueKey(store, {
				workspaceId: workspace.id,
				kind,
				// "Default short-link key", as the kinds are written for people.
				name: `Default ${KEY_KIND_WORDS[kind]} key`,
				scopes: KIND_SCOPES[kind],
				now,
			}).key,
		]),
	) as Record<KeyKind, string>;
	return { workspace, keys };
}

/**
 * State written by earlier versions, once per workspace. Before `keys:manage` existed any key managed keys;
 * before a key could grant only scopes it holds, a key with `keys:manage` granted every scope. In a workspace
 * where no key holds another kind's scope (so none was made by this version), the active workspace keys with
 * every API scope of their kind get `keys:manage` and the other kinds' scopes: what they could do before, so
 * the console keeps working after an upgrade. Answers whether anything changed.
 */
export function upgradeKeyScopes(store: Store): boolean {
	let changed = false;
	for (const workspace of store.all('workspaces')) {
		const keys = store.all('keys', (key) => key.workspaceId === workspace.id);
		const upgraded = keys.some((key) => key.kind === 'workspace' && holdsOtherKindsScopes(key));
		if (upgraded) continue;
		const managed = keys.some((key) => key.scopes.includes(MANAGE_KEYS));
		for (const key of keys) {
			const owner = API_SCOPES.workspace.every((scope) => key.scopes.includes(scope));
			const manages = !managed || key.scopes.includes(MANAGE_KEYS);
			if (key.kind !== 'workspace' || key.revokedAt || !owner || !manages) continue;
			key.scopes = [...KIND_SCOPES.workspace];
			changed = true;
		}
	}
	return changed;
}

function holdsOtherKindsScopes(key: KeyRecord): boolean {
	return key.scopes.some((scope) => scope !== MANAGE_KEYS && !API_SCOPES[key.kind].includes(scope));
}

/** 403 unless the key holds `scope`. */
export function requireScope(key: { scopes: readonly KeyScope[] }, scope: KeyScope): void {
	if (!key.scopes.includes(scope)) {
		throw new HttpError(
			403,
			'insufficient_scope',
			`This endpoint needs the scope ${scope}; the key has ${key.scopes.join(', ')}`,
		);
	}
}
