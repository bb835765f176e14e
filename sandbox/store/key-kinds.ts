import type { KeyKind } from '../../src/client/api';
import type { Scope } from '../../src/client/operation';

export type { KeyKind };

/**
 * The three kinds of API key, their prefixes and the scopes each kind can hold. Plain data with no Node
 * imports: the sandbox and the console's browser script (console/browser/) both read it.
 */

/** The console's own scope: list, generate and revoke the workspace's keys. No API endpoint takes it. */
export const MANAGE_KEYS = 'keys:manage';

export type KeyScope = Scope | typeof MANAGE_KEYS;

export const KEY_PREFIXES: Record<KeyKind, string> = {
	workspace: 'mcw_',
	shortLink: 'mcl_',
	automation: 'mca_',
};

/** The API scopes of each kind: what a new key holds unless other scopes are asked for. */
export const API_SCOPES: Record<KeyKind, Scope[]> = {
	workspace: ['messaging:read', 'messaging:write'],
	shortLink: ['links:read', 'links:write'],
	automation: ['automation:read', 'automation:write'],
};

/**
 * Every scope a key of each kind can hold. A workspace key may also manage the workspace's keys, and a key
 * may grant only scopes it holds: so a workspace key that manages keys may also hold the other kinds' API
 * scopes, as the ones it may grant (it still calls only the workspace's endpoints).
 */
export const KIND_SCOPES: Record<KeyKind, KeyScope[]> = {
	workspace: [
		...API_SCOPES.workspace,
		MANAGE_KEYS,
		...API_SCOPES.shortLink,
		...API_SCOPES.automation,
	],
	shortLink: API_SCOPES.shortLink,
	automation: API_SCOPES.automation,
};

/**
 * What is wrong with each scope asked for a key of a kind (by position): one its kind cannot hold, or
 * another kind's scope on a key that does not manage keys (it could neither use nor grant it).
 */
export function scopeProblems(kind: KeyKind, scopes: readonly KeyScope[]): Map<number, string> {
	const problems = new Map<number, string>();
	const manages = scopes.includes(MANAGE_KEYS);
	scopes.forEach((scope, index) => {
		if (!KIND_SCOPES[kind].includes(scope)) {
			problems.set(index, `a ${kind} key takes only ${KIND_SCOPES[kind].join(', ')}`);
		} else if (!manages && scope !== MANAGE_KEYS && !API_SCOPES[kind].includes(scope)) {
			problems.set(
				index,
				`another kind's scope: a ${kind} key holds it only with ${MANAGE_KEYS}, to grant it`,
			);
		}
	});
	return problems;
}

export const KEY_KINDS = Object.keys(KEY_PREFIXES) as KeyKind[];
