import type { KeyKind } from '../src/client/api';
import type { Scope } from '../src/client/operation';

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

/** Every scope a key of each kind can hold: a workspace key may also manage the workspace's keys. */
export const KIND_SCOPES: Record<KeyKind, KeyScope[]> = {
	workspace: [...API_SCOPES.workspace, MANAGE_KEYS],
	shortLink: API_SCOPES.shortLink,
	automation: API_SCOPES.automation,
};

export const KEY_KINDS = Object.keys(KEY_PREFIXES) as KeyKind[];
