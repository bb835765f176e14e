import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import {
	eventsOfBatch,
	isBatch,
	PING_EVENT,
	SIGNATURE_FAILURE_TEXT,
	subscribesTo,
	unwrapEvent,
	type EventEnvelope,
} from '../../../src/client';
import { deliveryIdOf, notRun, refuse, run } from './answers';
import { serviceAccess } from './access';
import { claim } from './claim';
import { chosenOptions, withGathering } from './parameters';
import { signingRegistrations } from './registrations';
import { followMovedUrl, restoreSubscription } from './repairs';
import type { ChosenOptions, Subscription, TriggerSpec } from './spec';

/**
 * One delivery to the trigger's webhook, in one pass, in this order: the signature over the exact bytes
 * received, the body (an event envelope), a ping, n8n's move to another URL, the node's choice of events and
 * filters and its other reasons to skip, then the claim of the event id at the service, so that a redelivered
 * event runs once, and the item. A batch (the contract's `batch`) is filtered event by event, claimed once by its
 * own id, and runs once with an item per event taken. The node's Options are read once, after the ping; the gathering only when the
 * webhook is set back at the service. Everything it takes is acknowledged (answers.ts); refusals are answered by
 * the node itself and start nothing.
 */

/** What the trigger reads of n8n's request: the exact bytes that were signed. */
interface DeliveryRequest {
	rawBody?: Buffer | string;
	readRawBody?: () => Promise<void>;
}

/**
 * How long a delivery may spend at the service (the claim, the files of `attach`, a repair), from the start of
 * `webhook()`: the service waits 10 s for the answer, and n8n needs some of them to answer and to start the
 * execution. Past it, a claim is not tried again (whatever a 429's Retry-After says): the delivery is answered
 * 503, and the service delivers it again.
 */
const DELIVERY_DEADLINE_MS = 7_000;

export async function rawBodyOf(request: DeliveryRequest): Promise<Buffer> {
	if (request.rawBody === undefined && typeof request.readRawBody === 'function') {
		await request.readRawBody();
	}
	const { rawBody } = request;
	if (Buffer.isBuffer(rawBody)) return rawBody;
	return Buffer.from(typeof rawBody === 'string' ? rawBody : '', 'utf8');
}

/**
 * Why the node's events or filters leave out an event it was sent, or undefined when they take it. The service
 * matches the same before it delivers, so such an event means the webhook differs there from the node.
 */
function leftOut<C, E extends string>(
	spec: TriggerSpec<C, E>,
	subscription: Subscription<E>,
	event: EventEnvelope,
): string | undefined {
	if (!subscribesTo(subscription.events, event.type)) return `event type ${event.type} not chosen`;
	const { instanceIds, linkIds } = subscription.filters ?? {};
	const subject = spec.subject?.(event) ?? {};
	if (instanceIds && !(subject.instanceId && instanceIds.includes(subject.instanceId))) {
		return 'instance not chosen';
	}
	if (linkIds && !(subject.linkId && linkIds.includes(subject.linkId))) return 'link not chosen';
	return undefined;
}

/**
 * The URL n8n gives this trigger now: the production one, or for a test delivery (where n8n gives the
 * production URL) the test URL its registration was made at.
 */
function ownUrl(context: IWebhookFunctions, registeredAt: string): string {
	if (context.getMode() === 'manual') return registeredAt;
	return context.getNodeWebhookUrl('default') ?? registeredAt;
}

/** Handles one delivery: what the node's `webhook()` returns. */
export async function receive<C, E extends string>(
	context: IWebhookFunctions,
	spec: TriggerSpec<C, E>,
): Promise<IWebhookResponseData> {
	const deadline = Date.now() + DELIVERY_DEADLINE_MS;
	const nodeName = context.getNode().name;
	const deliveryId = deliveryIdOf(context);

	// 1. The signature, over the exact bytes received, before anything else is looked at; 2. the body.
	const registrations = signingRegistrations(context);
	const delivery = unwrapEvent({
		payload: await rawBodyOf(context.getRequestObject() as DeliveryRequest),
		headers: context.getHeaderData(),
		secrets: registrations.map(({ registration }) => registration.secret),
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

	// 3. The service's probe: of a disabled webhook (acknowledged, it is enabled again), or of the old URL before
	// the webhook moves to another (the URL named here tells a move from a second n8n with the same owners).
	if (event.type === PING_EVENT) {
		context.logger.debug(`${nodeName}: acknowledged a ping from the service`);
		return notRun(context, deliveryId, 'ping', { url: ownUrl(context, signer.url) });
	}

	// n8n moved to another URL: the webhook follows it (repairs.ts).
	const access = serviceAccess(context, spec, signer.registration, deadline);
	await followMovedUrl(context, spec, signer, access);

	// 4. The node's choice of events and its filters; a batch's, event by event.
	const options = chosenOptions(context);
	const subscription = spec.subscription(context);
	const batched = isBatch(event);
	const taken: EventEnvelope[] = [];
	let changedAtService = false;
	for (const each of batched ? eventsOfBatch(event.data) : [event]) {
		const reason = leftOut(spec, subscription, each);
		if (reason) {
			context.logger.debug(`${nodeName}: event ${each.id} (${each.type}) dropped: ${reason}`);
			if (!changedAtService) {
				await restoreSubscription(
					context,
					spec,
					signer,
					access,
					withGathering(spec, subscription, options),
				);
			}
			changedAtService = true;
			if (!batched) return notRun(context, deliveryId, reason);
			continue;
		}
		const skipped = spec.skip?.(context, each, options);
		if (skipped) {
			context.logger.debug(`${nodeName}: event ${each.id} (${each.type}) dropped: ${skipped}`);
			if (!batched) return notRun(context, deliveryId, skipped);
			continue;
		}
		taken.push(each);
	}
	if (taken.length === 0) return notRun(context, deliveryId, 'no event of the batch taken');

	// 5. At-least-once delivery: only the first delivery of an event id runs.
	const claimed = await claim(context, spec, signer.registration, access, {
		eventId: event.id,
		deliveryId,
	});
	if (claimed === 'duplicate') {
		context.logger.debug(`${nodeName}: event ${event.id} was delivered again; not run twice`);
		return notRun(context, deliveryId, 'duplicate');
	}
	if (claimed === 'held') {
		context.logger.debug(
			`${nodeName}: event ${event.id} is being delivered by another attempt; answered 503 so that it comes again if that one fails`,
		);
		return refuse(context, {
			status: 503,
			code: 'claim_held',
			message: 'Another delivery of this event holds its claim; deliver it again later',
		});
	}
	if (claimed === 'failed') {
		return refuse(context, {
			status: 503,
			code: 'claim_failed',
			message: 'The event could not be checked against earlier deliveries; deliver it again later',
		});
	}

	// 6. The items: each event (or its data alone), what the spec highlights, what it attaches; a batch is one
	// execution with an item per event taken, each the item the event makes alone.
	const items = [];
	for (const each of taken) {
		const item = { json: outputOf(spec, each, options) };
		await spec.attach?.(context, each, item, access, options);
		items.push(item);
	}
	return run(context, deliveryId, items);
}

/** The event's item as the workflow gets it: Output Only Data leaves out the envelope around `data`. */
function outputOf<C, E extends string>(
	spec: TriggerSpec<C, E>,
	event: EventEnvelope,
	options: ChosenOptions,
): IDataObject {
	const highlights = spec.highlights?.of(event) ?? {};
	if (options.onlyData === true) return { ...highlights, ...(event.data as IDataObject) };
	return {
		id: event.id,
		type: event.type,
		createdAt: event.createdAt,
		...(event.workspaceId !== undefined ? { workspaceId: event.workspaceId } : {}),
		...highlights,
		data: event.data as IDataObject,
	};
}
