import { SIGNATURE_TOLERANCE_SECONDS } from '../../src/client/signature';
import { HttpError } from '../errors';
import type { ClaimRecord, Store, WebhookRecord } from '../store/store';

/**
 * Event claims: a receiver asks "may I run event X?" and only the first asker of each event id, per webhook,
 * hears yes. Deliveries are at least once, so this is what lets a receiver with many processes run each
 * event exactly once. A final claim is kept far longer than a redelivery can come: the signature tolerance
 * (300 s) plus the retry horizon (8 attempts with backoff: about 21 minutes with the default 10 s base).
 */
export const CLAIM_RETENTION_MS = 24 * 60 * 60 * 1000;

/** A type, not an interface: the contract's loose response schema wants an index signature. */
export type ClaimAnswer = { eventId: string; claimed: boolean; claimedAt: string; final: boolean };

/** Which delivery attempts are open now (the delivery engine's). */
export interface OpenAttempts {
	isOpen(deliveryId: string, eventId: string): boolean;
	/** The attempt's event was claimed: the attempt waits longer for its answer (DeliveryOptions.claimedTimeoutMs). */
	claimed(deliveryId: string): void;
}

/**
 * A claim is a lease on the delivery attempt it names: it lasts while that attempt is open, becomes final when
 * the attempt is acknowledged (`settleClaim`) and lapses otherwise, so that a receiver that crashed after
 * claiming loses nothing: the next attempt claims and runs the event. A claim naming no attempt (an older
 * receiver), or an event announced by a sandbox-only call, is final at once.
 */
export function claimEvent(
	store: Store,
	webhook: WebhookRecord,
	eventId: string,
	now: Date,
	attempts: OpenAttempts,
	deliveryId?: string,
	/** Events announced as delivered by someone else (`SandboxCore.announcedEvents`). */
	announced: ReadonlySet<string> = new Set(),
): ClaimAnswer {
	const isAnnounced = announced.has(`${webhook.id}:${eventId}`);
	if (!deliveredTo(store, webhook.id, eventId) && !isAnnounced) {
		throw new HttpError(
			404,
			'unknown_event',
			`Event "${eventId}" was never delivered to webhook ${webhook.id}`,
		);
	}
	pruneClaims(store, now.getTime());
	const id = `${webhook.id}:${eventId}`;
	const previous = store.get('claims', id);
	if (previous && !expired(previous, now.getTime()) && !lapsed(previous, attempts)) {
		return {
			eventId,
			claimed: false,
			claimedAt: previous.claimedAt,
			final: previous.final !== false,
		};
	}
	const lease = deliveryId !== undefined && !isAnnounced;
	if (lease && !attempts.isOpen(deliveryId, eventId)) {
		throw new HttpError(
			409,
			'attempt_closed',
			`Delivery ${deliveryId} of event "${eventId}" is no longer open (answered or timed out): it cannot claim; the next attempt will`,
		);
	}
	const claimedAt = now.toISOString();
	store.remove('claims', id);
	store.insert('claims', {
		id,
		workspaceId: webhook.workspaceId,
		webhookId: webhook.id,
		eventId,
		deliveryId: deliveryId ?? null,
		final: !lease,
		claimedAt,
	});
	if (lease) attempts.claimed(deliveryId);
	return { eventId, claimed: true, claimedAt, final: !lease };
}

/**
 * After a restart: a lease whose attempt was open when the service stopped (a kill -9, or a close that cut the
 * attempt short) is kept as final. The answer was lost with the service, not with the receiver, which claimed and
 * so runs the event (n8n creates the execution whether or not its answer arrives): letting the lease lapse ran the
 * event a second time on the redelivery (seen: e2e/scheduled-crash.test.mjs, 2 executions). What this gives up:
 * an event whose receiver also died in that same instant, before its execution existed, is not run again.
 */
export function keepLeasesOfStoppedAttempts(store: Store): void {
	for (const claim of store.values('claims')) {
		if (claim.final === false) claim.final = true;
	}
}

/** A lease whose attempt is over without an acknowledgement. */
function lapsed(claim: ClaimRecord, attempts: OpenAttempts): boolean {
	return (
		claim.final === false &&
		(!claim.deliveryId || !attempts.isOpen(claim.deliveryId, claim.eventId))
	);
}

/**
 * Whether the event was sent to the webhook: a claim is made while its delivery is on its way, and a delivery
 * still pending is never dropped from the delivery log.
 */
function deliveredTo(store: Store, webhookId: string, eventId: string): boolean {
	return store.deliveryIndex.has(webhookId, eventId);
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
 * The attempt `deliveryId` is answered: taken, the lease it holds becomes final; otherwise (an error status, no
 * answer in time, a dropped connection) the lease lapses, so the next attempt can run the event.
 */
export function settleClaim(
	store: Store,
	webhookId: string,
	eventId: string,
	deliveryId: string,
	taken: boolean,
): void {
	const id = `${webhookId}:${eventId}`;
	const claim = store.get('claims', id);
	if (!claim || claim.deliveryId !== deliveryId || claim.final !== false) return;
	if (taken) claim.final = true;
	else store.remove('claims', id);
}

/** Drops every claim made at a webhook that was deleted. */
export function forgetClaims(store: Store, webhookId: string): void {
	for (const claim of store.all('claims', (record) => record.webhookId === webhookId)) {
		store.remove('claims', claim.id);
	}
}

/**
 * The signatures of the signed claims taken: each is taken once, so a copied claim request changes nothing, not
 * even after a restart (they are kept in the store). A signature is kept until its timestamp is too far away to
 * be accepted at all (the tolerance either side).
 */
export function takeSignature(
	store: Store,
	workspaceId: string,
	signature: string,
	timestampSeconds: number,
	nowMs: number,
): boolean {
	for (const used of store.values('usedSignatures')) {
		if (Date.parse(used.keptUntil) > nowMs) break;
		store.remove('usedSignatures', used.id);
	}
	if (store.get('usedSignatures', signature)) return false;
	store.insert('usedSignatures', {
		id: signature,
		workspaceId,
		keptUntil: new Date((timestampSeconds + SIGNATURE_TOLERANCE_SECONDS + 1) * 1000).toISOString(),
	});
	return true;
}
