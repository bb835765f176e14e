import type { IWebhookFunctions } from 'n8n-workflow';

import { ApiError } from '../../../src/client';
import type { ConnectedClient } from '../connections';
import { failure, type Known } from './failure';
import type { Registration } from './registrations';
import type { ServiceAccess, TriggerSpec } from './spec';

/** The claim of a delivered event at the service, so that an event delivered again runs once. */

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
