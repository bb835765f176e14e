import type {
	IDataObject,
	INodeExecutionData,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import {
	ApiError,
	DELIVERY_ID_HEADER,
	SIGNATURE_FAILURE_TEXT,
	unwrapEvent,
	type EventEnvelope,
} from '../../../src/client';
import type { ConnectedClient } from '../connections';
import { signingRegistrations, type Registration } from './registrations';
import { failure, type Known, type Subscription, type TriggerSpec } from './spec';

/**
 * One delivery to the trigger's webhook, in this order: the signature over the exact bytes received, the body
 * (an event envelope), the node's choice of events and filters, then the claim of the event id at the service,
 * so that a redelivered event runs once. Refusals are answered by the node itself and start nothing.
 */

/** What the trigger reads of n8n's request: the exact bytes that were signed. */
interface DeliveryRequest {
	rawBody?: Buffer | string;
	readRawBody?: () => Promise<void>;
}

/** What it uses of n8n's response (an Express response, which is a Node.js `ServerResponse`). */
interface DeliveryResponse {
	headersSent?: boolean;
	writeHead(status: number, headers: Record<string, string>): unknown;
	end(body: string): unknown;
}

/**
 * How long a delivery may spend claiming its event at the service, retries included. The service waits 10 s
 * for an answer; a delivery that cannot claim in time is answered 503, and the service delivers it again.
 */
const CLAIM_TIMEOUT_MS = 4_000;
const CLAIM_RETRIES = 1;

/** Answers the request itself, and tells n8n not to answer nor run anything. */
export function refuse(
	context: IWebhookFunctions,
	{ status, code, message }: { status: 400 | 401 | 503; code: string; message: string },
): IWebhookResponseData {
	const response = context.getResponseObject() as DeliveryResponse;
	if (!response.headersSent) {
		response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
		response.end(JSON.stringify({ error: { code, message } }));
	}
	return { noWebhookResponse: true };
}

/** A 200 without an execution: the service stops redelivering, nothing runs. */
function acknowledge(reason: string): IWebhookResponseData {
	return { webhookResponse: { received: true, executed: false, reason } };
}

export async function rawBodyOf(request: DeliveryRequest): Promise<Buffer> {
	if (request.rawBody === undefined && typeof request.readRawBody === 'function') {
		await request.readRawBody();
	}
	const { rawBody } = request;
	if (Buffer.isBuffer(rawBody)) return rawBody;
	return Buffer.from(typeof rawBody === 'string' ? rawBody : '', 'utf8');
}

function subscribed(events: readonly string[], type: string): boolean {
	return (
		events.includes('*') ||
		events.includes(type) ||
		(type.startsWith('automation.') && events.includes('automation.*'))
	);
}

/** Why the node does not run for an event it was sent, or undefined when it runs. */
function notWanted<C, E extends string>(
	spec: TriggerSpec<C, E>,
	subscription: Subscription<E>,
	event: EventEnvelope,
): string | undefined {
	if (!subscribed(subscription.events, event.type)) return `event type ${event.type} not chosen`;
	const { instanceIds, linkIds } = subscription.filters ?? {};
	const subject = spec.subject?.(event) ?? {};
	if (instanceIds && !(subject.instanceId && instanceIds.includes(subject.instanceId))) {
		return 'instance not chosen';
	}
	if (linkIds && !(subject.linkId && linkIds.includes(subject.linkId))) return 'link not chosen';
	return undefined;
}

/**
 * How a delivery reaches the service: without a key where its registration allows it (through the base URL
 * kept with it), with the credential otherwise, read once and only when first needed. Reading a credential in
 * a webhook call costs n8n an expression isolate (docs/design.md), so the usual delivery reads none.
 */
export interface ServiceAccess<C> {
	/** The base URL kept with the registration; none for older registrations. */
	serviceUrl?: string;
	/** A client that sends no key, at that base URL. */
	unauthenticated?: C;
	/** The credential's client; the credential is read on the first call only. */
	keyed(): Promise<ConnectedClient<C>>;
}

function serviceAccess<C, E extends string>(
	context: IWebhookFunctions,
	spec: TriggerSpec<C, E>,
	registration: Registration,
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
	};
}

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

/** How the claim went; the event runs on `first` and `unsupported`. */
type Claim = 'first' | 'unsupported' | 'duplicate' | 'failed';

/**
 * Claims the event at the service: `first` when this delivery is the first of its event id at this webhook.
 * The service holds the claims, so every n8n process (main, webhook processes in queue mode) and every
 * restart sees the same answer; n8n's own state cannot give that (see docs/design.md). The claim is signed
 * with the webhook's secret where the service takes that (no credential is read); made with the API key
 * otherwise.
 */
async function claim<C, E extends string>(
	context: IWebhookFunctions,
	spec: TriggerSpec<C, E>,
	registration: Registration,
	access: ServiceAccess<C>,
	eventId: string,
): Promise<Claim> {
	// Named in the claim: if n8n then answers this request with an error (it could not start the execution),
	// the service releases the claim and a redelivery runs the event.
	const header = context.getHeaderData()[DELIVERY_ID_HEADER];
	const deliveryId = typeof header === 'string' && header !== '' ? header.slice(0, 200) : undefined;
	const input = {
		webhookId: registration.webhookId,
		body: { eventId, ...(deliveryId ? { deliveryId } : {}) },
	};
	const options = { timeoutMs: CLAIM_TIMEOUT_MS, maxRetries: CLAIM_RETRIES };
	const nodeName = context.getNode().name;
	const known: Known = { secrets: [registration.secret], serviceUrl: registration.serviceUrl };
	let connection: ConnectedClient<C> | undefined;
	try {
		if (access.unauthenticated && registration.signedClaims === true) {
			const answer = await spec
				.webhooks(access.unauthenticated)
				.claimEventSigned(input, { ...options, signingSecret: registration.secret });
			return answer.claimed ? 'first' : 'duplicate';
		}
		connection = await access.keyed();
		known.secrets = [...connection.secrets, registration.secret];
		known.serviceUrl = connection.serviceUrl;
		const answer = await spec.webhooks(connection.client).claimEvent(input, options);
		return answer.claimed ? 'first' : 'duplicate';
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

/** Handles one delivery: what the node's `webhook()` returns. */
export async function receive<C, E extends string>(
	context: IWebhookFunctions,
	spec: TriggerSpec<C, E>,
): Promise<IWebhookResponseData> {
	const nodeName = context.getNode().name;

	// 1. The signature, over the exact bytes received, before anything else is looked at; 2. the body.
	const registrations = signingRegistrations(context);
	const delivery = unwrapEvent({
		payload: await rawBodyOf(context.getRequestObject() as DeliveryRequest),
		headers: context.getHeaderData(),
		secrets: registrations.map((registration) => registration.secret),
	});
	if (!delivery.ok) {
		context.logger.warn(
			delivery.status === 401
				? `${nodeName}: refused a delivery with ${SIGNATURE_FAILURE_TEXT[delivery.reason]} (401); nothing was run`
				: `${nodeName}: refused a signed delivery whose body is not an event (400)`,
		);
		return refuse(context, delivery);
	}
	const { event } = delivery;
	const signer = registrations[delivery.signedWith];

	// 3. The node's choice of events and its filters.
	const reason = notWanted(spec, spec.subscription(context), event) ?? spec.skip?.(context, event);
	if (reason) {
		context.logger.debug(`${nodeName}: event ${event.id} (${event.type}) dropped: ${reason}`);
		return acknowledge(reason);
	}

	// 4. At-least-once delivery: only the first delivery of an event id runs.
	const access = serviceAccess(context, spec, signer);
	const claimed = await claim(context, spec, signer, access, event.id);
	if (claimed === 'duplicate') {
		context.logger.debug(`${nodeName}: event ${event.id} was delivered again; not run twice`);
		return acknowledge('duplicate');
	}
	if (claimed === 'failed') {
		return refuse(context, {
			status: 503,
			code: 'claim_failed',
			message: 'The event could not be checked against earlier deliveries; deliver it again later',
		});
	}

	const onlyData = (context.getNodeParameter('options.onlyData', false) as boolean) === true;
	const highlights = spec.highlights?.of(event) ?? {};
	const output: IDataObject = onlyData
		? { ...highlights, ...(event.data as IDataObject) }
		: {
				id: event.id,
				type: event.type,
				createdAt: event.createdAt,
				...(event.workspaceId !== undefined ? { workspaceId: event.workspaceId } : {}),
				...highlights,
				data: event.data as IDataObject,
			};
	const item: INodeExecutionData = { json: output };
	await spec.attach?.(context, event, item, access);
	return { workflowData: [[item]] };
}
