import type { IWebhookFunctions } from 'n8n-workflow';

import { ApiError } from '../../../src/client';
import type { ConnectedClient } from '../connections';
import type { Registration } from './registrations';
import { failure, type Known, type TriggerSpec } from './spec';

/**
 * The claim of a delivered event at the service, and how a delivery reaches the service at all (its access,
 * with the delivery's deadline).
 */

/**
 * How a delivery reaches the service: without a key where its registration allows it (through the base URL
 * kept with it), with the credential otherwise, read once and only when first needed. Reading a credential in
 * a webhook call costs n8n an expression isolate (docs/design.md), so the usual delivery reads none. Every call
 * of the delivery ends by its `deadline`.
 */
export interface ServiceAccess<C> {
	/** The base URL kept with the registration; none for older registrations. */
	serviceUrl?: string;
	/** A client that sends no key, at that base URL. */
	unauthenticated?: C;
	/** The credential's client; the credential is read on the first call only. */
	keyed(): Promise<ConnectedClient<C>>;
	/**
	 * When every call of this delivery must be over (`CallOptions.deadline`): the service waits 10 s for the
	 * answer, and the claim and the files of `attach` share what the delivery has.
	 */
	deadline: number;
}

export function serviceAccess<C, E extends string>(
	context: IWebhookFunctions,
	spec: TriggerSpec<C, E>,
	registration: Registration,
	deadline: number,
): ServiceAccess<C> {
	let keyed: Promise<ConnectedClient<C>> | undefined;
	return {
		...(registration.serviceUrl
			? {
					serviceUrl: registration.serviceUrl,
					unauthenticated: spec.connection.unauthenticated(context, registration.serviceUrl),
				}
			: {}),
		keyed: () => (keyed ??= spec.connection.connect(context)),
		deadline,
	};
}

/** One attempt at most 4 s, and one retry, within the delivery's deadline. */
const CLAIM_TIMEOUT_MS = 4_000;
const CLAIM_RETRIES = 1;

/**
 * A service without event claims answers that the endpoint does not exist (but not that it never delivered
 * the event: `unknown_event` is a refusal).
 */
function claimsUnsupported(error: unknown): boolean {
	return (
		error instanceof ApiError &&
		[404, 405, 410, 501].includes(error.status) &&
		error.code !== 'unknown_event'
	);
}

/**
 * How the claim went; the event runs on `first` and `unsupported`. `held`: another attempt of this delivery
 * holds the claim right now (it may still fail), so this one is answered with an error and comes again.
 */
export type Claim = 'first' | 'unsupported' | 'duplicate' | 'held' | 'failed';

function claimOf(answer: { claimed: boolean; final?: boolean }): Claim {
	if (answer.claimed) return 'first';
	// A service that does not say `final` has no leases: a claim taken is taken for good.
	return answer.final === false ? 'held' : 'duplicate';
}

/**
 * Claims the event at the service: `first` when this delivery is the first of its event id at this webhook.
 * The service holds the claims, so every n8n process (main, webhook processes in queue mode) and every
 * restart sees the same answer; n8n's own state cannot give that (see docs/design.md). The claim is signed
 * with the webhook's secret where the service takes that (no credential is read); made with the API key
 * otherwise. Named with the delivery id, it is a lease on this attempt: final once the attempt is acknowledged,
 * lapsed when it gets any other answer (or none in time), so that a redelivery can claim and run the event.
 * A 409 (`attempt_closed`: the service gave up waiting for this attempt; `claim_replayed`) is a failure like
 * any other: answered 503, nothing runs, the next attempt claims afresh.
 */
export async function claim<C, E extends string>(
	context: IWebhookFunctions,
	spec: TriggerSpec<C, E>,
	registration: Registration,
	access: ServiceAccess<C>,
	{ eventId, deliveryId }: { eventId: string; deliveryId: string | undefined },
): Promise<Claim> {
	const input = {
		webhookId: registration.webhookId,
		body: { eventId, ...(deliveryId ? { deliveryId } : {}) },
	};
	const options = {
		timeoutMs: CLAIM_TIMEOUT_MS,
		maxRetries: CLAIM_RETRIES,
		deadline: access.deadline,
	};
	const nodeName = context.getNode().name;
	const known: Known = { secrets: [registration.secret], serviceUrl: registration.serviceUrl };
	let connection: ConnectedClient<C> | undefined;
	try {
		if (access.unauthenticated && registration.signedClaims === true) {
			const answer = await spec
				.webhooks(access.unauthenticated)
				.claimEventSigned(input, { ...options, signingSecret: registration.secret });
			return claimOf(answer);
		}
		connection = await access.keyed();
		known.secrets = [...connection.secrets, registration.secret];
		known.serviceUrl = connection.serviceUrl;
		return claimOf(await spec.webhooks(connection.client).claimEvent(input, options));
	} catch (error) {
		if (connection && claimsUnsupported(error)) {
			context.logger.warn(
				`${nodeName}: the service does not take event claims; event ${eventId} runs without a check for redeliveries`,
			);
			return 'unsupported';
		}
		const mapped = failure(context, spec, error, spec.scopes.write, known);
		context.logger.warn(
			`${nodeName}: could not claim event ${eventId} at the service (${mapped.message}); answered 503 so that it is delivered again`,
		);
		return 'failed';
	}
}
