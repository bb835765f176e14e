import { SIGNATURE_TOLERANCE_SECONDS } from '../src/client/signature';
import { HttpError } from './http';
import type { ClaimRecord, Store, WebhookRecord } from './store';

/**
 * Event claims: a receiver asks "may I run event X?" and only the first asker of each event id, per webhook,
 * hears yes. Deliveries are at least once, so this is what lets a receiver with many processes run each
 * event exactly once. A claim is kept far longer than a redelivery can come: the signature tolerance (300 s)
 * plus the retry horizon (8 attempts with backoff: about 21 minutes with the default 10 s base).
 */
export const CLAIM_RETENTION_MS = 24 * 60 * 60 * 1000;

/** A type, not an interface: the contract's loose response schema wants an index signature. */
export type ClaimAnswer = { eventId: string; claimed: boolean; claimedAt: string };

export function claimEvent(
	store: Store,
	webhook: WebhookRecord,
	eventId: string,
	now: Date,
	deliveryId?: string,
	/** Events announced as delivered by someone else (`SandboxCore.announcedEvents`). */
	announced: ReadonlySet<string> = new Set(),
): ClaimAnswer {
	if (!deliveredTo(store, webhook.id, eventId) && !announced.has(`${webhook.id}:${eventId}`)) {
		throw new HttpError(
			404,
			'unknown_event',
			`Event "${eventId}" was never delivered to webhook ${webhook.id}`,
		);
	}
	pruneClaims(store, now.getTime());
	const id = `${webhook.id}:${eventId}`;
	const previous = store.get('claims', id);
	if (previous && !expired(previous, now.getTime())) {
		return { eventId, claimed: false, claimedAt: previous.claimedAt };
	}
	const claimedAt = now.toISOString();
	store.remove('claims', id);
	store.insert('claims', {
		id,
		workspaceId: webhook.workspaceId,
		webhookId: webhook.id,
		eventId,
		deliveryId: deliveryId ?? null,
		claimedAt,
	});
	return { eventId, claimed: true, claimedAt };
}

/**
 * Whether the event was sent to the webhook: a claim is made while its delivery is on its way, and a delivery
 * still pending is never dropped from the delivery log.
 */
function deliveredTo(store: Store, webhookId: string, eventId: string): boolean {
	for (const delivery of store.values('deliveries')) {
		if (delivery.webhookId === webhookId && delivery.eventId === eventId) return true;
	}
	return false;
}

function expired(claim: ClaimRecord, nowMs: number): boolean {
	return nowMs - Date.parse(claim.claimedAt) >= CLAIM_RETENTION_MS;
}

/**
 * Drops claims past their retention, so that memory stays bounded by the claims of one retention period.
 * Claims are kept in the order they were made, so this stops at the first one still kept.
 */
export function pruneClaims(store: Store, nowMs: number): void {
	for (const claim of store.values('claims')) {
		if (!expired(claim, nowMs)) return;
		store.remove('claims', claim.id);
	}
}

/**
 * The request named in a claim got an error status from the receiver: it did not take the event after all (n8n
 * could not start the execution, say), so its claim goes and the next delivery can run the event. A request
 * that got no answer (a timeout, or 502/504 from a proxy) keeps its claim: the event may have run.
 */
export function releaseClaim(
	store: Store,
	webhookId: string,
	eventId: string,
	deliveryId: string,
): void {
	const id = `${webhookId}:${eventId}`;
	if (store.get('claims', id)?.deliveryId === deliveryId) store.remove('claims', id);
}

/** Drops every claim made at a webhook that was deleted. */
export function forgetClaims(store: Store, webhookId: string): void {
	for (const claim of store.all('claims', (record) => record.webhookId === webhookId)) {
		store.remove('claims', claim.id);
	}
}

/**
 * The signatures of the signed claims taken: each is taken once, so a copied claim request changes nothing.
 * A signature is kept until its timestamp is too far away to be accepted at all (the tolerance either side).
 */
export class UsedClaimSignatures {
	/** Signature → when it can be forgotten (ms), in the order they were taken. */
	private readonly keptUntil = new Map<string, number>();

	has(signature: string, nowMs: number): boolean {
		this.prune(nowMs);
		return this.keptUntil.has(signature);
	}

	add(signature: string, timestampSeconds: number): void {
		this.keptUntil.set(signature, (timestampSeconds + SIGNATURE_TOLERANCE_SECONDS + 1) * 1000);
	}

	private prune(nowMs: number): void {
		for (const [signature, until] of this.keptUntil) {
			if (until > nowMs) continue;
			this.keptUntil.delete(signature);
		}
	}
}
