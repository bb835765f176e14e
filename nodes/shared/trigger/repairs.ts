import type { IWebhookFunctions } from 'n8n-workflow';

import type { WebhookEndpoints } from '../../../src/client';
import type { ConnectedClient } from '../connections';
import { modeOf, moveRegistration, type StoredRegistration } from './registrations';
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
 * old address, which still reaches this n8n: the production registration that signed the delivery is kept
 * under a URL n8n no longer gives the node, and the request was sent to that URL's host, not the current one.
 * The webhook's URL is set to the current one, and the registration is kept under it. True when it was moved:
 * the delivery is then answered 503 without running, because n8n saves the static data a `webhook()` call
 * changed only when the call starts no execution (docs/design.md); the redelivery comes to the new URL and runs
 * there. Nothing is changed for a test registration, whose static data n8n never saves.
 */
export async function followMovedUrl<C, E extends string>(
	context: IWebhookFunctions,
	spec: TriggerSpec<C, E>,
	signer: StoredRegistration,
	access: ServiceAccess<C>,
): Promise<boolean> {
	if (context.getMode() === 'manual' || modeOf(signer) !== 'production') return false;
	const current = context.getNodeWebhookUrl('default');
	if (!current || current === signer.url) return false;
	let stored: URL;
	let now: URL;
	try {
		stored = new URL(signer.url);
		now = new URL(current);
	} catch {
		return false;
	}
	const sentTo = requestHost(context, stored.protocol);
	if (
		sentTo === undefined ||
		sentTo !== hostOf(stored.host, stored.protocol) ||
		sentTo === hostOf(now.host, now.protocol)
	) {
		return false;
	}
	if (!(await updateWebhook(context, spec, signer, access, { url: current }, 'the URL'))) {
		return false;
	}
	moveRegistration(context, signer.url, current);
	context.logger.info(
		`${context.getNode().name}: webhook ${signer.registration.webhookId} was delivering to ${stored.origin}, an address n8n no longer gives this trigger; it now delivers to ${now.origin}`,
	);
	return true;
}
