import { randomBytes } from 'crypto';
import {
	NodeOperationError,
	type IDataObject,
	type IHookFunctions,
	type INodeProperties,
	type INodePropertyOptions,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import {
	ApiError,
	EventEnvelope,
	NotFoundError,
	SIGNATURE_HEADER,
	verifySignature,
	type CallOptions,
	type Scope,
	type SignatureFailure,
} from '../../src/client';
import type { ConnectionFactory } from './client';
import { toNodeError, type NodeError } from './errors';

/**
 * The one implementation behind the three trigger nodes (messaging, short links, automation): the webhook
 * lifecycle at the service (`checkExists`, `create`, `delete`), and the handling of each delivery (signature,
 * body, de-duplication, the node's event choice and filters, the output). A trigger node only says which key
 * it uses, which events and filters its parameters ask for, and which events it skips.
 */

/** Server-side filters of a webhook registration (the contract's `filters`). */
export interface WebhookFilters {
	instanceIds?: string[];
	linkIds?: string[];
}

/** What a trigger asks the service for, read from the node's parameters. */
export interface Subscription {
	/** Event types, `*` for all of the surface, `automation.*` for every automation event. */
	events: string[];
	filters?: WebhookFilters;
}

type TriggerContext = IHookFunctions | IWebhookFunctions;

/** The webhook endpoints of one surface as the trigger uses them; the three clients share this shape. */
export interface WebhookEndpoints {
	create(
		input: {
			body: {
				url: string;
				events: string[];
				secret: string;
				filters?: WebhookFilters;
				description?: string;
			};
		},
		options?: CallOptions,
	): Promise<{ id: string; secret?: string }>;
	get(input: {
		webhookId: string;
	}): Promise<{ id: string; url?: string; events?: string[]; status?: string }>;
	update(input: { webhookId: string; body: { enabled: boolean } }): Promise<unknown>;
	delete(input: { webhookId: string }): Promise<void>;
	claimEvent(
		input: { webhookId: string; body: { eventId: string } },
		options?: CallOptions,
	): Promise<{ claimed: boolean }>;
}

export interface TriggerSpec<C> {
	/** The kind of key the trigger's credential holds, for error messages. */
	keyKind: 'workspace' | 'short-link' | 'automation';
	connect: ConnectionFactory<C>;
	webhooks(client: C): WebhookEndpoints;
	scopes: { read: Scope; write: Scope };
	/** The events and filters the node's parameters ask for; throws `NodeOperationError` on bad input. */
	subscription(context: TriggerContext): Subscription;
	/** Why an event the node subscribed to is still not run (clicks by bots, for instance); or undefined. */
	skip?(context: IWebhookFunctions, event: EventEnvelope): string | undefined;
}

/** One webhook this node registered at the service. */
interface Registration {
	webhookId: string;
	/** The signing secret: kept here only, never output or logged. */
	secret: string;
	events: string[];
}

/**
 * The node's static data. Registrations are kept by webhook URL, because n8n gives a trigger two: the
 * production URL while the workflow is active, and the test URL while the editor listens for a test event.
 * Both can exist at once, and each lifecycle call only touches the registration of its own URL, so that
 * stopping a test never deletes the production webhook (and the other way round).
 */
interface TriggerState {
	webhooks?: Record<string, Registration>;
}

/**
 * How long a delivery may spend claiming its event at the service, retries included. The service waits 10 s
 * for an answer; a delivery that cannot claim in time is answered 503, and the service delivers it again.
 */
const CLAIM_TIMEOUT_MS = 4_000;
const CLAIM_RETRIES = 1;

const DESCRIPTION_MAX = 500;

// -----------------------------------------------------------------------------------------------------------
// Node parameters shared by the three triggers

function eventLabel(event: string): string {
	const text = event.replace(/[._]/g, ' ');
	return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The Events multi-select: "All Events" first, then each event type of the surface. */
export function eventsProperty(events: readonly string[], defaults: string[]): INodeProperties {
	const options: INodePropertyOptions[] = [
		{
			name: 'All Events',
			value: '*',
			description: 'Every event, including ones the service adds later',
		},
		...events.map((event) => ({ name: eventLabel(event), value: event })),
	];
	return {
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		default: [...defaults],
		options,
		description: 'The events that start the workflow',
	};
}

/** The Options collection every trigger has. */
export const triggerOptions: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [
		{
			displayName: 'Output Only Data',
			name: 'onlyData',
			type: 'boolean',
			default: false,
			description:
				'Whether to output only the event data, without the event ID, type and time around it',
		},
	],
};

/** A multi-select parameter as a list of non-empty strings (expressions may give a string). */
export function stringList(value: unknown): string[] {
	const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
	return items.map((item) => String(item).trim()).filter((item) => item !== '');
}

// -----------------------------------------------------------------------------------------------------------
// The webhook lifecycle

function state(context: TriggerContext): TriggerState {
	return context.getWorkflowStaticData('node') as TriggerState;
}

function webhookUrl(context: IHookFunctions): string {
	const url = context.getNodeWebhookUrl('default');
	if (!url) {
		throw new NodeOperationError(context.getNode(), 'n8n gave no webhook URL for this trigger');
	}
	return url;
}

/** Replaces the registration of a URL (or removes it), writing new objects so n8n sees the change. */
function setRegistration(context: TriggerContext, url: string, registration?: Registration) {
	const data = state(context);
	const webhooks: Record<string, Registration> = { ...data.webhooks };
	if (registration) webhooks[url] = registration;
	else delete webhooks[url];
	if (Object.keys(webhooks).length > 0) {
		data.webhooks = webhooks;
	} else {
		delete data.webhooks;
	}
}

function sameEvents(a: readonly string[], b: readonly string[]): boolean {
	return a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');
}

const FIELD_NAMES = {
	webhookId: 'Webhook',
	'body.url': 'Webhook URL',
	'body.events': 'Events',
	'body.filters.instanceIds': 'Instances',
	'body.filters.linkIds': 'Links',
};

export interface TriggerImplementation {
	checkExists(context: IHookFunctions): Promise<boolean>;
	create(context: IHookFunctions): Promise<boolean>;
	delete(context: IHookFunctions): Promise<boolean>;
	webhook(context: IWebhookFunctions): Promise<IWebhookResponseData>;
}

/** An error of a call to the service, as the node shows it: mapped, with every secret kept out. */
function failure<C>(
	context: TriggerContext,
	spec: TriggerSpec<C>,
	error: unknown,
	scope: Scope,
	secrets: string[],
): NodeError {
	return toNodeError(context.getNode(), error, {
		keyKind: spec.keyKind,
		scope,
		noun: 'webhook',
		fields: FIELD_NAMES,
		secrets,
	});
}

export function webhookTrigger<C>(spec: TriggerSpec<C>): TriggerImplementation {
	/** Deletes a webhook at the service; one that is gone already is fine. */
	async function removeRemote(
		context: IHookFunctions,
		endpoints: WebhookEndpoints,
		webhookId: string,
		secrets: string[],
	): Promise<void> {
		try {
			await endpoints.delete({ webhookId });
		} catch (error) {
			if (!(error instanceof NotFoundError))
				throw failure(context, spec, error, spec.scopes.write, secrets);
			context.logger.debug(`Multichannel trigger: webhook ${webhookId} was already deleted`);
		}
	}

	return {
		async checkExists(context) {
			const url = webhookUrl(context);
			const registration = state(context).webhooks?.[url];
			if (!registration) return false;

			const { client, secrets } = await spec.connect(context);
			const endpoints = spec.webhooks(client);
			const known = [...secrets, registration.secret];
			let remote: Awaited<ReturnType<WebhookEndpoints['get']>>;
			try {
				remote = await endpoints.get({ webhookId: registration.webhookId });
			} catch (error) {
				if (!(error instanceof NotFoundError))
					throw failure(context, spec, error, spec.scopes.read, known);
				context.logger.info(
					`Multichannel trigger: webhook ${registration.webhookId} no longer exists at the service; it will be created again`,
				);
				setRegistration(context, url);
				return false;
			}

			// Changed at the service (another URL or other events): replaced by one that matches the node.
			const wanted = spec.subscription(context).events;
			if (
				(remote.url !== undefined && remote.url !== url) ||
				(Array.isArray(remote.events) && !sameEvents(remote.events, wanted))
			) {
				context.logger.info(
					`Multichannel trigger: webhook ${registration.webhookId} was changed at the service; it will be replaced`,
				);
				await removeRemote(context, endpoints, registration.webhookId, known);
				setRegistration(context, url);
				return false;
			}

			// The service disables a webhook whose deliveries keep failing (n8n was down, say): turn it back on.
			if (remote.status === 'disabled') {
				try {
					await endpoints.update({ webhookId: registration.webhookId, body: { enabled: true } });
				} catch (error) {
					throw failure(context, spec, error, spec.scopes.write, known);
				}
				context.logger.warn(
					`Multichannel trigger: webhook ${registration.webhookId} had been disabled by the service after failed deliveries; it was enabled again`,
				);
			}
			return true;
		},

		async create(context) {
			const url = webhookUrl(context);
			const { events, filters } = spec.subscription(context);
			const { client, secrets } = await spec.connect(context);
			const endpoints = spec.webhooks(client);

			// Never two webhooks for one URL: a registration left behind is removed first.
			const previous = state(context).webhooks?.[url];
			if (previous) {
				await removeRemote(context, endpoints, previous.webhookId, [...secrets, previous.secret]);
				setRegistration(context, url);
			}

			const secret = randomBytes(32).toString('hex');
			const workflow = context.getWorkflow();
			const description =
				`n8n workflow "${workflow.name ?? workflow.id ?? ''}", node "${context.getNode().name}"`.slice(
					0,
					DESCRIPTION_MAX,
				);
			let created: { id: string; secret?: string };
			try {
				created = await endpoints.create({
					body: { url, events, secret, ...(filters ? { filters } : {}), description },
				});
			} catch (error) {
				const mapped = failure(context, spec, error, spec.scopes.write, [...secrets, secret]);
				// n8n 2.40 activates in the background and may show a failure only in its own log, after
				// retries: this line says at once which workflow's trigger could not register, and why.
				context.logger.error(
					`Multichannel trigger: could not register the webhook of ${description}: ${mapped.message}${
						mapped.description ? ` (${mapped.description})` : ''
					}`,
				);
				throw mapped;
			}
			// A service that picks its own secret says so in its answer; that one is what it signs with.
			const signingSecret =
				typeof created.secret === 'string' && created.secret !== '' ? created.secret : secret;
			setRegistration(context, url, { webhookId: created.id, secret: signingSecret, events });
			context.logger.info(
				`Multichannel trigger: registered webhook ${created.id} for ${events.join(', ')}`,
			);
			return true;
		},

		async delete(context) {
			const url = webhookUrl(context);
			const registration = state(context).webhooks?.[url];
			if (!registration) return true;
			const { client, secrets } = await spec.connect(context);
			await removeRemote(context, spec.webhooks(client), registration.webhookId, [
				...secrets,
				registration.secret,
			]);
			setRegistration(context, url);
			context.logger.info(`Multichannel trigger: deleted webhook ${registration.webhookId}`);
			return true;
		},

		async webhook(context) {
			return await receive(context, spec);
		},
	};
}

// -----------------------------------------------------------------------------------------------------------
// One delivery

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

const FAILURE_TEXT: Record<SignatureFailure | 'unknown', string> = {
	missing: 'no signature header',
	malformed: 'a malformed signature header',
	stale: 'a signature timestamp more than 300 s away',
	mismatch: 'a signature that does not match',
	unknown: 'no webhook registered by this node to check it against',
};

/** Answers the request itself, and tells n8n not to answer nor run anything. */
function refuse(
	context: IWebhookFunctions,
	status: 400 | 401 | 503,
	code: string,
	message: string,
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

async function rawBodyOf(request: DeliveryRequest): Promise<Buffer> {
	if (request.rawBody === undefined && typeof request.readRawBody === 'function') {
		await request.readRawBody();
	}
	const { rawBody } = request;
	if (Buffer.isBuffer(rawBody)) return rawBody;
	return Buffer.from(typeof rawBody === 'string' ? rawBody : '', 'utf8');
}

function text(value: unknown): string | undefined {
	return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The instance and link an event concerns, where the filters look. */
function subjectOf(event: EventEnvelope): { instanceId?: string; linkId?: string } {
	const data = event.data as IDataObject;
	const link = data.link as IDataObject | undefined;
	const click = data.click as IDataObject | undefined;
	return {
		instanceId:
			text(data.instanceId) ?? (event.type.startsWith('instance.') ? text(data.id) : undefined),
		linkId: event.type.startsWith('link.')
			? (text(link?.id) ?? text(click?.linkId) ?? text(data.id))
			: undefined,
	};
}

function subscribed(events: string[], type: string): boolean {
	return (
		events.includes('*') ||
		events.includes(type) ||
		(type.startsWith('automation.') && events.includes('automation.*'))
	);
}

/** Why the node does not run for an event it was sent, or undefined when it runs. */
function notWanted(subscription: Subscription, event: EventEnvelope): string | undefined {
	if (!subscribed(subscription.events, event.type)) return `event type ${event.type} not chosen`;
	const { instanceIds, linkIds } = subscription.filters ?? {};
	const subject = subjectOf(event);
	if (instanceIds && !(subject.instanceId && instanceIds.includes(subject.instanceId))) {
		return 'instance not chosen';
	}
	if (linkIds && !(subject.linkId && linkIds.includes(subject.linkId))) return 'link not chosen';
	return undefined;
}

/** The registration whose secret signed this delivery, or why none did. */
function signedBy(
	registrations: Registration[],
	payload: Buffer,
	header: string | string[] | undefined,
): { registration: Registration } | { reason: SignatureFailure | 'unknown' } {
	let reason: SignatureFailure | 'unknown' = 'unknown';
	for (const registration of registrations) {
		const check = verifySignature({ payload, header, secrets: registration.secret });
		if (check.valid) return { registration };
		reason = check.reason;
	}
	return { reason };
}

/** A service without event claims answers that the endpoint does not exist. */
function claimsUnsupported(error: unknown): boolean {
	return error instanceof ApiError && [404, 405, 410, 501].includes(error.status);
}

/**
 * Claims the event at the service: true when this delivery is the first of its event id at this webhook.
 * The service holds the claims, so every n8n process (main, webhook processes in queue mode) and every
 * restart sees the same answer; n8n's own state cannot give that (see the README's design notes).
 */
async function claim<C>(
	context: IWebhookFunctions,
	spec: TriggerSpec<C>,
	registration: Registration,
	eventId: string,
): Promise<'first' | 'duplicate' | 'unsupported' | 'failed'> {
	const nodeName = context.getNode().name;
	let secrets: string[] = [registration.secret];
	try {
		const connection = await spec.connect(context);
		secrets = [...connection.secrets, registration.secret];
		const answer = await spec
			.webhooks(connection.client)
			.claimEvent(
				{ webhookId: registration.webhookId, body: { eventId } },
				{ timeoutMs: CLAIM_TIMEOUT_MS, maxRetries: CLAIM_RETRIES },
			);
		return answer.claimed ? 'first' : 'duplicate';
	} catch (error) {
		if (claimsUnsupported(error)) {
			context.logger.warn(
				`${nodeName}: the service does not take event claims; event ${eventId} runs without a check for redeliveries`,
			);
			return 'unsupported';
		}
		const mapped = failure(context, spec, error, spec.scopes.write, secrets);
		context.logger.warn(
			`${nodeName}: could not claim event ${eventId} at the service (${mapped.message}); answered 503 so that it is delivered again`,
		);
		return 'failed';
	}
}

async function receive<C>(
	context: IWebhookFunctions,
	spec: TriggerSpec<C>,
): Promise<IWebhookResponseData> {
	const nodeName = context.getNode().name;

	// 1. The signature, over the exact bytes received, before anything else is looked at.
	const raw = await rawBodyOf(context.getRequestObject() as DeliveryRequest);
	const signer = signedBy(
		Object.values(state(context).webhooks ?? {}).filter(
			(registration) => typeof registration.secret === 'string' && registration.secret !== '',
		),
		raw,
		context.getHeaderData()[SIGNATURE_HEADER],
	);
	if ('reason' in signer) {
		context.logger.warn(
			`${nodeName}: refused a delivery with ${FAILURE_TEXT[signer.reason]} (401); nothing was run`,
		);
		return refuse(
			context,
			401,
			'invalid_signature',
			'The X-Multichannel-Signature header is missing, malformed, stale or does not match',
		);
	}

	// 2. The body: a JSON event envelope.
	let body: unknown;
	try {
		body = JSON.parse(raw.toString('utf8'));
	} catch {
		body = undefined;
	}
	const parsed = EventEnvelope.safeParse(body);
	if (!parsed.success) {
		context.logger.warn(`${nodeName}: refused a signed delivery whose body is not an event (400)`);
		return refuse(context, 400, 'invalid_body', 'The body is not a Multichannel event (JSON)');
	}
	const event = parsed.data;

	// 3. The node's choice of events and its filters.
	const reason = notWanted(spec.subscription(context), event) ?? spec.skip?.(context, event);
	if (reason) {
		context.logger.debug(`${nodeName}: event ${event.id} (${event.type}) dropped: ${reason}`);
		return acknowledge(reason);
	}

	// 4. At-least-once delivery: only the first delivery of an event id runs.
	const claimed = await claim(context, spec, signer.registration, event.id);
	if (claimed === 'duplicate') {
		context.logger.debug(`${nodeName}: event ${event.id} was delivered again; not run twice`);
		return acknowledge('duplicate');
	}
	if (claimed === 'failed') {
		return refuse(
			context,
			503,
			'claim_failed',
			'The event could not be checked against earlier deliveries; deliver it again later',
		);
	}

	const onlyData = (context.getNodeParameter('options.onlyData', false) as boolean) === true;
	const output: IDataObject = onlyData
		? (event.data as IDataObject)
		: {
				id: event.id,
				type: event.type,
				createdAt: event.createdAt,
				...(event.workspaceId !== undefined ? { workspaceId: event.workspaceId } : {}),
				data: event.data as IDataObject,
			};
	return { workflowData: [context.helpers.returnJsonArray([output])] };
}
