/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the sandbox runs in plain Node, never inside n8n */
import type { IncomingMessage } from 'node:http';

import { KEY_KIND_TITLES, type KeyKind } from '../../../src/client/api';
import { HttpError } from '../../errors';
import type { KeyScope } from '../../store/key-kinds';
import { findKey, requireScope } from '../../store/keys';
import type { KeyRecord, Store } from '../../store/store';

/**
 * Who is calling and what they may do: the one Bearer sign-in of the API and the console, the API's check
 * of key kind and scope, and the scope check the console uses too.
 */

const CHALLENGE = { 'WWW-Authenticate': 'Bearer' };

const MISSING_KEY = 'Missing API key: send "Authorization: Bearer <API key>"';

/** The key record of the request's Bearer token; 401 when it is missing, unknown or revoked. */
export function authenticateKey(
	store: Store,
	req: IncomingMessage,
	missingMessage = MISSING_KEY,
): KeyRecord {
	const token = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
	if (!token) throw new HttpError(401, 'unauthorized', missingMessage, [], CHALLENGE);
	const key = findKey(store, token);
	if (!key) throw new HttpError(401, 'unauthorized', 'The API key is not valid', [], CHALLENGE);
	if (key.revokedAt) {
		throw new HttpError(
			401,
			'unauthorized',
			`The API key was revoked at ${key.revokedAt}`,
			[],
			CHALLENGE,
		);
	}
	return key;
}

/** 403 unless the key is of the route's kind (surface) and holds its scope. */
export function authorizeRoute(
	key: KeyRecord,
	route: { keyKind: KeyKind; operation: { scope: KeyScope } },
): void {
	if (key.kind !== route.keyKind) {
		throw new HttpError(
			403,
			'wrong_key_kind',
			`This endpoint takes a ${KEY_KIND_TITLES[route.keyKind].toLowerCase()}; the key given is a ` +
				`${KEY_KIND_TITLES[key.kind].toLowerCase()}`,
		);
	}
	requireScope(key, route.operation.scope);
}
