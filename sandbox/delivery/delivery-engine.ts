import type { EventType } from '../../src/client/events';
import { AttemptDeadline } from './attempt-deadline';
import type { ANSWER_EVENT } from '../../src/client/resources/answers';
import type { BatchEventType } from '../../src/client/resources/batches';
import { ACK_HEADER, type PING_EVENT } from '../../src/client/signature';
import { acknowledgedInBody } from './acknowledgement';
import { postSigned } from './signed-post';
import type { Leases } from './leases';
import type { Scheduler } from '../scheduler';
import { newId, type DeliveryProgress } from '../store/store';
import type { DeliveryOptions } from './delivery-options';
import { Pacing, type Lane, type SlotOutcome } from './pacing';
import { failureText, isSuccess, type PostResult } from './post-result';
import type { OutboundPurpose } from '../outbound/outbound';
import { urlProblem } from '../outbound/policy';

/**
 * Delivery as SERVICE.md fixes it, for every receiver (webhooks, answer registrations): signed, at least
 * once, retried with exponential backoff and jitter on a non-2xx answer or a timeout, up to `maxAttempts`.
 * Sent from timers, never inside an API request. What differs between receivers (where a delivery is kept,
 * what ends it early, what its end changes) is a `DeliveryKind`.
 *
 * An event is announced only once it is in the data file, with its id and whatever made it (a message marked
 * delivered, a scheduled send marked sent): a new delivery's first attempt saves first, unless the data file
 * was saved since the delivery was queued. A kill -9 after the POST then finds the delivery there, and sends it
 * again under the same id, never the event made a second time under a new one.
 */

/** The one text a delivery that got no HTTP answer records: a closed port looks like any other failure. */
const COULD_NOT_CONNECT = 'Could not connect to the webhook URL, or it gave no HTTP answer';
/** What an attempt records when its event could not be saved first (it is then not sent). */
const NOT_SAVED = 'The event could not be saved, so it was not sent';

/** The data file as deliveries see it (persistence.ts): the saves made so far, and a save now. */
export interface DeliverySaves {
	readonly saveCount: number;
	/** Saves what changed; false when it could not be saved (and was undone). */
	saveInBackground(): boolean;
}

export { DEFAULT_DELIVERY_OPTIONS, type DeliveryOptions } from './delivery-options';
export { failureText, isSuccess, type PostResult } from './post-result';

export interface EventEnvelope {
	id: string;
	/** A webhook event, the answer sent to an answer registration, or the ping of a disabled webhook. */
	type: EventType | BatchEventType | typeof ANSWER_EVENT | typeof PING_EVENT;
	/** A batch of events (sandbox/delivery/batching.ts). */
	batch?: true;
	createdAt: string;
	workspaceId: string;
	data: unknown;
}

/** The one place an event's envelope is made. */
export function envelope(
	workspaceId: string,
	type: EventEnvelope['type'],
	data: unknown,
	now: Date,
): EventEnvelope {
	return { id: newId('evt'), type, createdAt: now.toISOString(), workspaceId, data };
}

/** Where a delivery goes. */
export interface Receiver {
	/** A webhook's id, a registration's: whose claims an attempt's leases are. */
	id: string;
	url: string;
	secret: string;
}

/** How it ended: answered with 2xx, out of attempts (or refused for good), or stopped before sending. */
export type DeliveryEnd = 'succeeded' | 'exhausted' | 'stopped';

/** One kind of receiver: where its deliveries are kept and what their answers and ends change. */
export interface DeliveryKind<D extends DeliveryProgress = DeliveryProgress> {
	/**
	 * The delivery and its receiver now: undefined when the delivery is gone, a reason instead of the
	 * receiver when it can no longer be sent (it then ends as `stopped`), `held` when it waits for its
	 * receiver to be enabled again (it is then kept without attempts).
	 */
	find(id: string): { delivery: D; receiver: Receiver | string | typeof HELD } | undefined;
	/** Runs after every POST (even one made while closing). */
	answered?(delivery: D, result: PostResult): void;
	/** Whether an answer delivered it; by default any 2xx. */
	delivered?(delivery: D, result: PostResult): boolean;
	/** An answer status (to the attempt numbered `attempt`, from 1) after which no retry can help. */
	final?(status: number, attempt: number): boolean;
	/** Runs once the delivery has ended (its status is set). */
	ended(id: string, delivery: D, end: DeliveryEnd): void;
	/** Runs after its status changed (held, released, ended). */
	moved?(delivery: D): void;
	/** Where its attempts wait their turn (sandbox/delivery/pacing.ts); unpaced without. */
	lane?(delivery: D): Lane;
}

/** How an attempt went, for its receiver's window, and when the next is due (if one is). */
interface AttemptEnd {
	outcome: SlotOutcome;
	retryInMs?: number;
}
const OTHER: AttemptEnd = { outcome: 'other' };

/** What `find` says of a delivery whose receiver cannot take it now but may again. */
export const HELD = Symbol('held');

export function newDelivery(event: EventEnvelope): DeliveryProgress {
	return {
		eventId: event.id,
		payload: JSON.stringify(event),
		attempt: 0,
		status: 'pending',
		responseStatus: null,
		error: null,
		updatedAt: event.createdAt,
		nextAttemptAt: event.createdAt,
		attempts: [],
	};
}

export class DeliveryEngine {
	private readonly inFlight = new Set<AbortController>();
	/** The deliveries with an attempt on its way. */
	private readonly queued = new Set<string>();
	/** Attempts in flight per webhook, bounded (sandbox/delivery/pacing.ts). */
	readonly pacing: Pacing;
	constructor(
		private readonly scheduler: Scheduler,
		private readonly options: DeliveryOptions,
		private readonly now: () => Date,
		/** Called after each change to a delivery, so that the store is marked changed and saved. */
		private readonly onChange: () => void,
		private readonly saves: DeliverySaves,
		/** The leases claims hold on the attempts under way: each attempt is opened and closed there. */
		readonly leases: Leases,
		/** The outbound policy of receivers, and the agent that checks every connection against it. */
		private readonly outbound: OutboundPurpose,
		/** What each attempt adds to the stored payload before it is signed (fresh signed file URLs). */
		private readonly stamp: (payload: string) => string = (payload) => payload,
	) {
		this.pacing = new Pacing(options.maxInFlight);
	}

	/** Sends a pending delivery when its attempt is due (now, for a new one; later, after a restart). */
	schedule<D extends DeliveryProgress>(kind: DeliveryKind<D>, id: string, delivery: D): void {
		if (delivery.status !== 'pending') return;
		const due = delivery.nextAttemptAt
			? Date.parse(delivery.nextAttemptAt) - this.now().getTime()
			: 0;
		this.queue(kind, id, due, this.saves.saveCount);
	}

	/**
	 * An attempt in `dueMs`, unless one is on its way already (due, waiting for its turn, or in flight): a delivery
	 * held and released before its first timer fired must not go twice.
	 */
	private queue<D extends DeliveryProgress>(
		kind: DeliveryKind<D>,
		id: string,
		dueMs: number,
		queuedAt?: number,
	): void {
		if (this.queued.has(id)) return;
		this.queued.add(id);
		this.scheduler.after(dueMs, () => this.attempt(kind, id, queuedAt));
	}

	async close(): Promise<void> {
		for (const controller of this.inFlight) controller.abort();
	}

	/** Keeps a delivery without attempts until `release`, when its receiver can take it again. */
	hold<D extends DeliveryProgress>(kind: DeliveryKind<D>, delivery: D): void {
		if (delivery.status === 'held') return;
		delivery.status = 'held';
		delivery.nextAttemptAt = null;
		delivery.updatedAt = this.now().toISOString();
		kind.moved?.(delivery);
		this.onChange();
	}

	/** A held (or finished) delivery goes again now, with a fresh set of attempts. */
	release<D extends DeliveryProgress>(kind: DeliveryKind<D>, id: string, delivery: D): void {
		delivery.status = 'pending';
		delivery.attempt = 0;
		delivery.nextAttemptAt = this.now().toISOString();
		delivery.updatedAt = delivery.nextAttemptAt;
		kind.moved?.(delivery);
		this.onChange();
		this.schedule(kind, id, delivery);
	}

	/** An attempt once its receiver's window has room for it (sandbox/delivery/pacing.ts). */
	private attempt<D extends DeliveryProgress>(
		kind: DeliveryKind<D>,
		id: string,
		queuedAt?: number,
	): void {
		const waiting = kind.find(id)?.delivery;
		if (waiting?.status !== 'pending') {
			this.queued.delete(id);
			return;
		}
		// Started from a timer of its own: never inside a request, and what it throws goes where timers' errors go.
		this.pacing.enqueue(kind.lane?.(waiting), (done) =>
			this.scheduler.after(0, async () => {
				let end: AttemptEnd = OTHER;
				try {
					end = await this.attemptNow(kind, id, queuedAt);
				} finally {
					done(end.outcome);
					this.queued.delete(id);
				}
				if (end.retryInMs !== undefined) this.queue(kind, id, end.retryInMs);
			}),
		);
	}

	/** `queuedAt`: the save count when the delivery was queued (its first attempt saves it if it is not saved). */
	private async attemptNow<D extends DeliveryProgress>(
		kind: DeliveryKind<D>,
		id: string,
		queuedAt?: number,
	): Promise<AttemptEnd> {
		const found = kind.find(id);
		// Gone, held or ended while it waited for its turn.
		if (!found || found.delivery.status !== 'pending') return OTHER;
		const { delivery, receiver } = found;
		if (receiver === HELD) {
			this.hold(kind, delivery);
			return OTHER;
		}
		if (typeof receiver === 'string') {
			this.end(kind, id, delivery, 'stopped', receiver);
			return OTHER;
		}

		const attempt = delivery.attempt + 1;
		const started = Date.now();
		const unsaved = queuedAt === this.saves.saveCount;
		const result = await this.post(receiver, delivery.payload, delivery.eventId, attempt, unsaved);
		kind.answered?.(delivery, result);
		// Closing mid-attempt: the delivery stays pending and is sent again after a restart. Not saved: undone.
		if (result.aborted || this.scheduler.isClosed) return OTHER;
		// Gone meanwhile (its webhook or registration deleted): nothing more to do.
		const now = kind.find(id);
		if (!now) return OTHER;

		const at = this.now();
		const { status } = result;
		const ok = kind.delivered ? kind.delivered(delivery, result) : isSuccess(status);
		const outcome = ok ? 'delivered' : result.timedOut ? 'timedOut' : 'other';
		delivery.attempt = attempt;
		delivery.responseStatus = status;
		delivery.error = ok ? null : (result.error ?? failureText(status));
		delivery.updatedAt = at.toISOString();
		delivery.attempts.push({
			attempt,
			at: at.toISOString(),
			responseStatus: status,
			error: delivery.error,
			durationMs: Date.now() - started,
		});

		if (ok) {
			this.end(kind, id, delivery, 'succeeded', null);
		} else if (now.receiver === HELD) {
			// Its webhook was disabled meanwhile: kept for when it is enabled again.
			this.hold(kind, delivery);
		} else if (
			attempt >= this.options.maxAttempts ||
			(status !== null && kind.final?.(status, attempt) === true)
		) {
			this.end(kind, id, delivery, 'exhausted', delivery.error);
		} else {
			const delay = this.backoff(attempt);
			delivery.nextAttemptAt = new Date(at.getTime() + delay).toISOString();
			this.onChange();
			return { outcome, retryInMs: delay };
		}
		return { outcome };
	}

	/**
	 * One signed POST of an event to a receiver; a fresh timestamp each time (receivers reject ones over
	 * 300 s), and fresh signed file URLs. `saveFirst`: what changed is saved before (not sent if it cannot be).
	 */
	async post(
		receiver: Receiver,
		payload: string,
		eventId: string,
		attempt: number,
		saveFirst = false,
	): Promise<PostResult> {
		const deliveryId = newId('dlr');
		const unanswered = {
			status: null,
			aborted: false,
			deliveryId,
			acknowledged: false,
			timedOut: false,
		};
		if (saveFirst && !this.saves.saveInBackground())
			return { ...unanswered, error: NOT_SAVED, aborted: true };
		// A URL stored before its target was refused (an older data file) is not tried.
		if (urlProblem(receiver.url, this.outbound.policy))
			return { ...unanswered, error: COULD_NOT_CONNECT };
		const controller = new AbortController();
		this.inFlight.add(controller);
		const deadline = new AttemptDeadline(this.options.timeoutMs);
		this.leases.open(deliveryId, {
			eventId,
			receiverId: receiver.id,
			onClaim: () => deadline.restart(this.options.claimedTimeoutMs),
		});
		const body = this.stamp(payload);
		try {
			const response = await postSigned({
				url: receiver.url,
				secret: receiver.secret,
				body,
				eventId,
				attempt,
				deliveryId,
				dispatcher: this.outbound.agent,
				signal: AbortSignal.any([controller.signal, deadline.signal]),
			});
			const acknowledged =
				response.headers[ACK_HEADER] === deliveryId ||
				(await acknowledgedInBody(response.body, deliveryId));
			return this.closed({ ...unanswered, status: response.statusCode, error: null, acknowledged });
		} catch {
			// No detail of the failure: a refused connection, an unknown name and a hang-up read alike, so
			// the log cannot tell which ports are open.
			const { passed, waitMs } = deadline;
			const error = passed
				? `No answer within ${waitMs} ms${waitMs === this.options.timeoutMs ? '' : ' of its claim'}`
				: COULD_NOT_CONNECT;
			return this.closed({
				...unanswered,
				error,
				aborted: controller.signal.aborted,
				timedOut: passed,
			});
		} finally {
			deadline.clear();
			this.inFlight.delete(controller);
		}
	}

	/** The attempt's answer settles the lease a claim holds on it, before anyone hears the answer. */
	private closed(result: PostResult): PostResult {
		this.leases.close(result.deliveryId, result);
		return result;
	}

	/** Exponential backoff with "equal jitter": half of each step fixed, half random. */
	private backoff(attempt: number): number {
		const step = Math.min(
			this.options.maxRetryDelayMs,
			this.options.retryBaseMs * 2 ** (attempt - 1),
		);
		return Math.round(step / 2 + (step / 2) * this.options.random());
	}

	private end<D extends DeliveryProgress>(
		kind: DeliveryKind<D>,
		id: string,
		delivery: D,
		end: DeliveryEnd,
		error: string | null,
	): void {
		delivery.status = end === 'succeeded' ? 'succeeded' : 'failed';
		delivery.error = error;
		delivery.nextAttemptAt = null;
		delivery.updatedAt = this.now().toISOString();
		kind.moved?.(delivery);
		kind.ended(id, delivery, end);
		this.onChange();
	}
}
