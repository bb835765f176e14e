import type { IWebhookFunctions } from 'n8n-workflow';

import type { WebhookEndpoints } from '../../../src/client';
import type { ConnectedClient } from '../connections';
import { modeOf, type StoredRegistration } from './registrations';
import { failure, type Known } from './failure';
import type { ServiceAccess, Subscription, TriggerSpec } from './spec';

/**
 * What a delivery shows about the webhook at the service, and repairs there. Under n8n's workflow publication
 * service (n8n 2.x's default) a restart never calls the lifecycle again, so a delivery is the trigger's only
 * chance to notice that the webhook was changed at the service, or that n8n moved. Best effort: one short call
 * with the credential, within the delivery's deadline; a failure is logged (without secrets) and the delivery
 * goes on as if nothing was seen.
 */

type UpdateBody<E extends string> = Parameters<WebhookEndpoints<E>['update']>[0]['body'];

/** One attempt, within the delivery's deadline. */
const REPAIR_OPTIONS = { timeoutMs: 3_000, maxRetries: 0 };

/** Updates the delivery's webhook with the credential; true when the service took it. */
async function updateWebhook<C, E extends string>(
	context: IWebhookFunctions,
	spec: TriggerSpec<C, E>,
	{ registration }: StoredRegistration,
	access: ServiceAccess<C>,
	body: UpdateBody<E>,
	what: string,
): Promise<boolean> {
	const known: Known = { secrets: [registration.secret], serviceUrl: registration.serviceUrl };
	try {
		const connection: ConnectedClient<C> = await access.keyed();
		known.secrets = [...connection.secrets, registration.secret];
		known.serviceUrl = connection.serviceUrl;
		await spec
			.webhooks(connection.client)
			.update(
				{ webhookId: registration.webhookId, body },
				{ ...REPAIR_OPTIONS, deadline: access.deadline },
			);
		return true;
	} catch (error) {
		const mapped = failure(context, spec, error, spec.scopes.write, known);
		context.logger.warn(
			`${context.getNode().name}: could not set ${what} of webhook ${registration.webhookId} at the service: ${mapped.message}`,
		);
		return false;
	}
}

/**
 * The service delivered an event of a type the node did not choose, or of an instance or link its filters
 * leave out: its webhook was changed there (through the API, or the console). Set back to the node's events,
 * filters and gathering, so that it stops sending what the node drops.
 */
export async function restoreSubscription<C, E extends string>(
	context: IWebhookFunctions,
	spec: TriggerSpec<C, E>,
	signer: StoredRegistration,
	access: ServiceAccess<C>,
	{ events, filters, gather, batch }: Subscription<E>,
): Promise<void> {
	const restored = await updateWebhook(
		context,
		spec,
		signer,
		access,
		{
			events,
			...(filters ? { filters } : {}),
			...(gather ? { gather } : {}),
			...(batch ? { batch } : {}),
		},
		'the events and filters',
	);
	if (restored) {
		context.logger.info(
			`${context.getNode().name}: webhook ${signer.registration.webhookId} delivered an event the node did not ask for; its events and filters were set back to the node's`,
		);
	}
}

/** A Host header's host, lower-case, without the port its scheme implies. */
function hostOf(value: string | undefined, protocol: string): string | undefined {
	const host = value?.split(',')[0].trim().toLowerCase();
	if (!host) return undefined;
	const implied = protocol === 'https:' ? ':443' : ':80';
	return host.endsWith(implied) ? host.slice(0, -implied.length) : host;
}

/** The host the request was sent to, as the sender named it: a reverse proxy's `X-Forwarded-Host` first. */
function requestHost(context: IWebhookFunctions, protocol: string): string | undefined {
	const headers = context.getHeaderData();
	const forwarded = headers['x-forwarded-host'];
	const host = typeof forwarded === 'string' && forwarded !== '' ? forwarded : headers.host;
	return hostOf(typeof host === 'string' ? host : undefined, protocol);
}

/**
 * n8n moved (a new public URL, given to the node by n8n's WEBHOOK_URL) while the service still delivers to the
 * old address, which still reaches this n8n: the production registration that signed the delivery was made at
 * a URL n8n no longer gives the node, and the request was sent to that URL's host, not the current one. The
 * webhook's URL is set to the current one; the delivery then runs as usual.
 *
 * Static data is left as it is: n8n saves a delivery's copy of it over the whole column, so a registration
 * `create()` made meanwhile (n8n republishes as the first deliveries come through the old address) would be
 * overwritten with the older secret, and every delivery refused (401). The registration stays under the URL it
 * was made at until the next registration (registrationFor).
 *
 * Never back to a URL the webhook was registered at before this registration (`formerUrls`): a process still
 * given that URL is older than the registration (queue mode, rolled out in any order), and an address that
 * still reaches n8n needs no move. Nothing is changed for a test registration, whose static data n8n never saves.
 */
export async function followMovedUrl<C, E extends string>(
	context: IWebhookFunctions,
	spec: TriggerSpec<C, E>,
	signer: StoredRegistration,
	access: ServiceAccess<C>,
): Promise<void> {
	if (context.getMode() === 'manual' || modeOf(signer) !== 'production') return;
	const current = context.getNodeWebhookUrl('default');
	if (!current || current === signer.url) return;
	if (signer.registration.formerUrls?.includes(current)) {
		context.logger.debug(
			`${context.getNode().name}: webhook ${signer.registration.webhookId} was registered at ${signer.url} after this process's URL; not moved back`,
		);
		return;
	}
	let stored: URL;
	let now: URL;
	try {
		stored = new URL(signer.url);
		now = new URL(current);
	} catch {
		return;
	}
	const sentTo = requestHost(context, stored.protocol);
	if (
		sentTo === undefined ||
		sentTo !== hostOf(stored.host, stored.protocol) ||
		sentTo === hostOf(now.host, now.protocol)
	) {
		return;
	}
	if (await updateWebhook(context, spec, signer, access, { url: current }, 'the URL')) {
		context.logger.info(
			`${context.getNode().name}: webhook ${signer.registration.webhookId} was delivering to ${stored.origin}, an address n8n no longer gives this trigger; it now delivers to ${now.origin}`,
		);
	}
}
