/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the sandbox runs in plain Node, never inside n8n */
import type { IncomingMessage } from 'node:http';

import {
	SIGNATURE_HEADER,
	signedRequestPayload,
	signPayload,
	verifySignature,
} from '../../../src/client/signature';
import { takeSignature } from '../../delivery/claim-signatures';
import type { SandboxCore } from '../../core';
import { decodeSegment } from '../request-values';
import { HttpError } from '../../errors';
import type { Route } from '../routes';
import type { WebhookRecord } from '../../store/store';

/**
 * Who calls an operation authenticated without an API key (`signed` in its description): a claim signed with
 * its webhook's secret, or a URL the service signed (a file's `downloadUrl`). Gives the workspace it acts in,
 * the budget its rate limit counts against, and what to do once it is answered.
 */

export interface SignedCaller {
	workspaceId: string;
	/** The rate-limit budget: the webhook, as a key's is the key. */
	id: string;
	/**
	 * Uses up the request's signature, right before its handler runs (409 when it was used already): nothing
	 * runs between the two, so two copies sent at once cannot both be taken.
	 */
	take(): void;
}

const INVALID =
	'The X-Multichannel-Signature header is missing, malformed, stale or does not match';

/** 401 for an unknown webhook as for a bad signature: the answer does not say which webhooks exist. */
function invalidSignature(): HttpError {
	return new HttpError(401, 'invalid_signature', INVALID);
}

export function authenticateSigned(
	core: SandboxCore,
	route: Route,
	rawParams: Record<string, string>,
	req: IncomingMessage,
	url: URL,
	body: Buffer,
): SignedCaller {
	return route.operation.signed === 'url'
		? bySignedUrl(core, rawParams)
		: byWebhookSecret(
				core,
				route,
				rawParams,
				req,
				signedRequestPayload(route.operation.method, url.pathname, body),
			);
}

/** A signed file URL: valid until it expires, as often as it is fetched (a retried download, a user's own). */
function bySignedUrl(core: SandboxCore, rawParams: Record<string, string>): SignedCaller {
	const token = decodeSegment(rawParams.token ?? '', 'token');
	const check = core.signedMedia.check(
		token,
		(messageId) => core.store.get('messages', messageId)?.workspaceId,
	);
	if (!check.valid && check.reason === 'expired') {
		throw new HttpError(
			401,
			'url_expired',
			'This file URL has expired: download the file with an API key (GET /messages/{messageId}/media)',
		);
	}
	if (!check.valid) {
		throw new HttpError(401, 'invalid_signature', 'This file URL was not signed by the service');
	}
	return { workspaceId: check.workspaceId, id: `signed-media:${check.messageId}`, take: () => {} };
}

function byWebhookSecret(
	core: SandboxCore,
	route: Route,
	rawParams: Record<string, string>,
	req: IncomingMessage,
	/** What the signature covers: method, path and raw body (`signedRequestPayload`). */
	signed: Buffer,
): SignedCaller {
	const webhookId = decodeSegment(rawParams.webhookId ?? '', 'webhookId');
	const webhook = core.store.get('webhooks', webhookId);
	if (!webhook || webhook.surface !== route.keyKind) throw invalidSignature();
	if (webhook.status === 'deleted') throw invalidSignature();
	const nowMs = core.now().getTime();
	for (const secret of verifyingSecrets(webhook, nowMs)) {
		const check = verifySignature({
			payload: signed,
			header: req.headers[SIGNATURE_HEADER],
			secrets: secret,
			nowSeconds: Math.floor(nowMs / 1000),
		});
		if (!check.valid) continue;
		// The signature as the service makes it, not the header as sent: the same claim with a header written
		// another way (spacing, an extra `v1`) is the same claim.
		const signature = signPayload(secret, signed, check.timestamp);
		return {
			workspaceId: webhook.workspaceId,
			id: `webhook:${webhook.id}`,
			take: () => {
				const taken = takeSignature(
					core.store,
					webhook.workspaceId,
					signature,
					check.timestamp,
					core.now().getTime(),
				);
				if (!taken) {
					throw new HttpError(
						409,
						'claim_replayed',
						'This signed claim was already made: each signature is taken once. Sign a new request to claim again',
					);
				}
			},
		};
	}
	throw invalidSignature();
}

/** The webhook's secret, and the one before it while its grace period lasts (a receiver may not have the new yet). */
function verifyingSecrets(webhook: WebhookRecord, nowMs: number): string[] {
	const { previousSecret, previousSecretUntil } = webhook;
	const inGrace =
		typeof previousSecret === 'string' &&
		typeof previousSecretUntil === 'string' &&
		Date.parse(previousSecretUntil) > nowMs;
	return inGrace ? [webhook.secret, previousSecret] : [webhook.secret];
}
