import type { Surface } from '../src/client/api';
import type { Scope } from '../src/client/operation';

/**
 * The three kinds of API key, their prefixes and the scopes each kind can hold. Plain data with no Node
 * imports: the sandbox and the console's browser script (console/browser/) both read it.
 */

/** A key's kind is the surface (group of endpoints) it opens. */
export type KeyKind = Surface;

export const KEY_PREFIXES: Record<KeyKind, string> = {
	workspace: 'mcw_',
	shortLink: 'mcl_',
	automation: 'mca_',
};

export const KIND_SCOPES: Record<KeyKind, Scope[]> = {
	workspace: ['messaging:read', 'messaging:write'],
	shortLink: ['links:read', 'links:write'],
	automation: ['automation:read', 'automation:write'],
};

export const KEY_KINDS = Object.keys(KEY_PREFIXES) as KeyKind[];
