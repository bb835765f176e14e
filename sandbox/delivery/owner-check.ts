import { ACK_HEADER, PING_EVENT } from '../../src/client/signature';
import { answerFields } from './acknowledgement';
import { envelope } from './delivery-engine';
import { postSigned } from './signed-post';
import { conflict } from '../errors';
import type { OutboundPurpose } from '../outbound/outbound';
import { urlProblem, withoutCredentials } from '../outbound/policy';
import { newId, type WebhookRecord } from '../store/store';

/**
 * Before an owner's webhook moves to another URL (a registration of the same owner), whether a live receiver
 * still answers for that owner at the old one. A copy of an n8n (its user folder copied: the same encryption key,
 * so the same instance id and owner keys) registering at its own URL must not silently take the original's
 * webhook, and the original must not take it back at its next start: the two would take turns, unseen. So a
 * signed ping goes to the old URL first. The trigger acknowledges a ping and names the URL n8n gives it now: an
 * n8n that moved (both addresses reach it) names the new URL, a live original names another.
 */

/** How long the old URL has to answer: a registration waits for it. */
const OLD_URL_TIMEOUT_MS = 3_000;

/** What the old URL answered: nothing (or nothing acknowledged), or a live receiver and the URL it names. */
type OldUrlAnswer = { live: false } | { live: true; url: string | undefined };

async function pingOldUrl(
	webhook: WebhookRecord,
	outbound: OutboundPurpose,
	now: Date,
): Promise<OldUrlAnswer> {
	if (urlProblem(webhook.url, outbound.policy)) return { live: false };
	const event = envelope(webhook.workspaceId, PING_EVENT, { webhookId: webhook.id }, now);
	const deliveryId = newId('dlr');
	const body = JSON.stringify(event);
	try {
		const response = await postSigned({
			url: webhook.url,
			secret: webhook.secret,
			body,
			eventId: event.id,
			attempt: 1,
			deliveryId,
			dispatcher: outbound.agent,
			signal: AbortSignal.timeout(OLD_URL_TIMEOUT_MS),
		});
		const answer = await answerFields(response.body);
		const acknowledged =
			response.statusCode >= 200 &&
			response.statusCode < 300 &&
			(response.headers[ACK_HEADER] === deliveryId || answer.acknowledged === deliveryId);
		if (!acknowledged) return { live: false };
		return { live: true, url: typeof answer.url === 'string' ? answer.url : undefined };
	} catch {
		return { live: false };
	}
}

/**
 * Refuses (409 `owner_in_use`) a registration that would move an owner's webhook to `newUrl` while a live
 * receiver at its current URL acknowledges a ping for it and does not name `newUrl` as its own (an older receiver
 * that names none included: whether it moved cannot be told, and a wrong guess sends its events elsewhere).
 */
export async function refuseLiveOwner(
	webhook: WebhookRecord,
	newUrl: string,
	outbound: OutboundPurpose,
	now: Date,
): Promise<void> {
	const answer = await pingOldUrl(webhook, outbound, now);
	if (!answer.live || answer.url === newUrl) return;
	const named = answer.url
		? `says its address is ${withoutCredentials(answer.url)}`
		: 'names no address';
	throw conflict(
		'owner_in_use',
		`Webhook ${webhook.id} of this owner delivers to ${withoutCredentials(webhook.url)}, where a live receiver acknowledged a ping for it and ${named}: two receivers claim one owner (a copy of an n8n, with the same encryption key?). Nothing was changed. Deactivate the workflow in one of the two; a copy meant to run beside the original needs an instance of its own (a new user folder with its own encryption key, the workflows and credentials imported into it).`,
	);
}
