import type { Scope } from '../../src/client/operation';
import type { KeyKind } from '../key-kinds';

/**
 * What the console's endpoints answer, as types only: the sandbox builds them (console/api.ts) and the
 * browser script reads them (console/browser/).
 */

/** What the console shows of a key: never its hash, never the key itself. */
export interface KeyView {
	id: string;
	name: string;
	kind: KeyKind;
	prefix: string;
	scopes: Scope[];
	createdAt: string;
	lastUsedAt: string | null;
	revokedAt: string | null;
	status: 'active' | 'revoked';
}

/** `GET /user/api/session`: who is signed in. */
export interface SessionView {
	workspace: { id: string; name: string };
	key: KeyView;
	/** The scopes each kind of key can hold. */
	kinds: Record<KeyKind, Scope[]>;
}
