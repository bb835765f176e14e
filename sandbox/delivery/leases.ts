import { HttpError } from '../errors';
import type { ClaimRecord, Store, WebhookRecord } from '../store/store';
import { isSuccess, type PostResult } from './post-result';

/**
 * Event claims: a receiver asks "may I run event X?" and only the first asker of each event id, per webhook,
 * hears yes. Deliveries are at least once, so this is what lets a receiver with many processes run each
 * event exactly once. A final claim is kept far longer than a redelivery can come: the signature tolerance
 * (300 s) plus the retry horizon (8 attempts with backoff: about 21 minutes with the default 10 s base).
 */
export const CLAIM_RETENTION_MS = 24 * 60 * 60 * 1000;

/** A type, not an interface: the contract's loose response schema wants an index signature. */
export type ClaimAnswer = { eventId: string; claimed: boolean; claimedAt: string; final: boolean };

/** A delivery attempt under way, which a claim may hold a lease on. */
export interface OpenAttempt {
	eventId: string;
	/** Whose attempt it is (a webhook's id): the lease it settles is that receiver's claim of the event. */
	receiverId: string;
	/** Its event was claimed: the attempt now waits longer for its answer (DeliveryOptions.claimedTimeoutMs). */
	onClaim(): void;
}

/**
 * A claim is a lease on the delivery attempt it names: it lasts while that attempt is open, becomes final when
 * the attempt is answered 2xx and lapses otherwise, so that a receiver that crashed after claiming loses nothing:
 * the next attempt claims and runs the event. A claim naming no attempt (an older receiver), or an event
 * announced by a sandbox-only call, is final at once. One object keeps both halves: the claims (in the store) and
 * the attempts open now (in memory: after a restart none is open), so a lease is made, extended and settled here.
 */
export class Leases {
	private readonly openAttempts = new Map<string, OpenAttempt>();

	constructor(private readonly store: Store) {}

	/** The attempt `deliveryId` is on its way: a claim naming it is a lease on it until `close`. */
	open(deliveryId: string, attempt: OpenAttempt): void {
		this.openAttempts.set(deliveryId, attempt);
	}

	/**
	 * The attempt is over. Answered 2xx, the lease it holds becomes final: the trigger ran and n8n took the
	 * execution, even when the acknowledgement did not come through (a proxy that drops headers), so the delivery
	 * is retried but the event never runs twice. Otherwise (an error status, no answer in time, a dropped
	 * connection) the lease lapses. An attempt the service itself cut short (it is closing) settles nothing: its
	 * receiver may be running the event, so its lease is kept for the restart (`keepLeasesOfStoppedAttempts`).
	 */
	close(deliveryId: string, result: Pick<PostResult, 'status' | 'aborted'>): void {
		const attempt = this.openAttempts.get(deliveryId);
		this.openAttempts.delete(deliveryId);
		if (!attempt || result.aborted) return;
		const id = `${attempt.receiverId}:${attempt.eventId}`;
		const claim = this.store.get('claims', id);
		if (!claim || claim.deliveryId !== deliveryId || claim.final !== false) return;
		if (isSuccess(result.status)) claim.final = true;
		else this.store.remove('claims', id);
	}

	claim(
		webhook: WebhookRecord,
		eventId: string,
		now: Date,
		deliveryId?: string,
		/** Events announced as delivered by someone else (`SandboxCore.announcedEvents`). */
		announced: ReadonlySet<string> = new Set(),
	): ClaimAnswer {
		const { store } = this;
		const isAnnounced = announced.has(`${webhook.id}:${eventId}`);
		if (!store.deliveryIndex.has(webhook.id, eventId) && !isAnnounced) {
			// A claim is made while its delivery is on its way, and a pending delivery is never dropped from the log.
			throw new HttpError(
				404,
				'unknown_event',
				`Event "${eventId}" was never delivered to webhook ${webhook.id}`,
			);
		}
		this.prune(now.getTime());
		const id = `${webhook.id}:${eventId}`;
		const previous = store.get('claims', id);
		if (previous && !expired(previous, now.getTime()) && !this.lapsed(previous)) {
			return {
				eventId,
				claimed: false,
				claimedAt: previous.claimedAt,
				final: previous.final !== false,
			};
		}
		const lease = deliveryId !== undefined && !isAnnounced;
		const attempt = lease ? this.openAttempt(deliveryId, eventId) : undefined;
		if (lease && !attempt) {
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
		attempt?.onClaim();
		return { eventId, claimed: true, claimedAt, final: !lease };
	}

	/**
	 * After a restart: a lease whose attempt was open when the service stopped (a kill -9, or a close that cut the
	 * attempt short) is kept as final. The answer was lost with the service, not with the receiver, which claimed and
	 * so runs the event (n8n creates the execution whether or not its answer arrives): letting the lease lapse ran the
	 * event a second time on the redelivery (seen: e2e/scheduled-crash.test.mjs, 2 executions). What this gives up:
	 * an event whose receiver also died in that same instant, before its execution existed, is not run again.
	 */
	keepLeasesOfStoppedAttempts(): void {
		for (const claim of this.store.values('claims')) {
			if (claim.final === false) claim.final = true;
		}
	}

	/** Drops every claim made at a webhook that was deleted. */
	forget(webhookId: string): void {
		for (const claim of this.store.all('claims', (record) => record.webhookId === webhookId)) {
			this.store.remove('claims', claim.id);
		}
	}

	/**
	 * Drops claims past their retention, so that memory stays bounded by the claims of one retention period.
	 * Claims are kept in the order they were made, so this stops at the first one still kept.
	 */
	private prune(nowMs: number): void {
		for (const claim of this.store.values('claims')) {
			if (!expired(claim, nowMs)) return;
			this.store.remove('claims', claim.id);
		}
	}

	/** The attempt that sent `deliveryId`, while it still waits for its answer, for this event. */
	private openAttempt(deliveryId: string, eventId: string): OpenAttempt | undefined {
		const attempt = this.openAttempts.get(deliveryId);
		return attempt?.eventId === eventId ? attempt : undefined;
	}

	/** A lease whose attempt is over without an acknowledgement. */
	private lapsed(claim: ClaimRecord): boolean {
		return (
			claim.final === false &&
			(!claim.deliveryId || !this.openAttempt(claim.deliveryId, claim.eventId))
		);
	}
}

function expired(claim: ClaimRecord, nowMs: number): boolean {
	return nowMs - Date.parse(claim.claimedAt) >= CLAIM_RETENTION_MS;
}
