import type { KeyKind, KeyScope } from '../key-kinds';

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
	scopes: KeyScope[];
	createdAt: string;
	lastUsedAt: string | null;
	revokedAt: string | null;
	status: 'active' | 'revoked';
}

/** `GET /user/api/session`: who is signed in. */
export interface SessionView {
	workspace: { id: string; name: string };
	key: KeyView;
	/** Whether the key may list, generate and revoke keys (`keys:manage`). */
	canManageKeys: boolean;
	/** The scopes each kind of key can hold. */
	kinds: Record<KeyKind, KeyScope[]>;
}
