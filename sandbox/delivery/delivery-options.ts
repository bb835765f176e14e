/** How deliveries are made (sandbox/delivery/delivery-engine.ts), with the real service's defaults; tests compress the times. */
export interface DeliveryOptions {
	maxAttempts: number;
	/** First retry delay; doubles with each attempt, with jitter. 10 s on a real service, less in tests. */
	retryBaseMs: number;
	maxRetryDelayMs: number;
	/** An answer that takes longer than this counts as a failure. */
	timeoutMs: number;
	/** Once its event is claimed, how long from the claim an attempt waits (sandbox/delivery/attempt-deadline.ts says why). */
	claimedTimeoutMs: number;
	/** Deliveries in a row that use up all their attempts before the webhook is disabled. */
	disableAfterFailedDeliveries: number;
	/** Finished deliveries kept per webhook for the delivery log. */
	logSize: number;
	random: () => number;
	/** How long an old secret verifies after a rotation, and a webhook deleted by its owner can be taken back. */
	graceMs: number;
	/** How long a disabled webhook keeps its events (and then is deleted). */
	retentionMs: number;
	/** A disabled webhook is pinged first after this, then at doubling intervals up to `pingMaxMs`. */
	pingMinMs: number;
	pingMaxMs: number;
	/** Answers of 404 or 410 only, for this long: the receiver is gone (`receiver_gone`). */
	receiverGoneMs: number;
	/** How often pings, retention and grace periods are looked after. */
	upkeepMs: number;
	/** Events kept for one disabled webhook at most; past it the oldest go. */
	maxHeldPerWebhook: number;
	/** Attempts in flight to one webhook at most (sandbox/delivery/pacing.ts). */
	maxInFlight: number;
}

export const DEFAULT_DELIVERY_OPTIONS: DeliveryOptions = {
	maxAttempts: 8,
	retryBaseMs: 10_000,
	maxRetryDelayMs: 60 * 60_000,
	timeoutMs: 10_000,
	claimedTimeoutMs: 120_000,
	disableAfterFailedDeliveries: 3,
	logSize: 200,
	random: Math.random,
	graceMs: 10 * 60_000,
	retentionMs: 72 * 60 * 60_000,
	pingMinMs: 60_000,
	pingMaxMs: 60 * 60_000,
	receiverGoneMs: 24 * 60 * 60_000,
	upkeepMs: 15_000,
	maxHeldPerWebhook: 10_000,
	maxInFlight: 64,
};
