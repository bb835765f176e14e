import { z } from '../zod';

import type { Client } from '../client';
import { AutomationWebhookEventName, LinkEventName, MessagingEventName } from '../events';
import { operation, type Scope } from '../operation';
import { BatchOptions } from './batches';
import { GatherOptions } from './gathered-messages';
import { Id, ListQuery, named, page, pathParams, Timestamp, Url, text } from '../schemas';

/**
 * Webhooks: each key kind registers its own, under its own path and scopes, for its own events
 * (the event names are in events.ts). Receivers claim each delivered event before running it.
 */

const FilterIds = z.array(Id).min(1).optional();
const filterShape = { instanceIds: FilterIds, linkIds: FilterIds };
type FilterName = keyof typeof filterShape;

/**
 * The filters a surface's webhooks take: messaging webhooks the ids of instances, short-link webhooks the ids of
 * links, automation webhooks none. Typed as all of them, so that the triggers' code is one for the three
 * surfaces; the schema (and so the service and the document) holds only the surface's own.
 */
function filtersOf(names: FilterName[]) {
	const shape = Object.fromEntries(names.map((name) => [name, filterShape[name]]));
	return z.strictObject(shape as typeof filterShape);
}

/**
 * Only messaging webhooks may gather bursts; typed as every surface's, like the filters, so that the triggers'
 * code is one. Absent or null: each message is delivered alone.
 */
function gatherShape(gathers: boolean) {
	return (
		gathers
			? {
					gather: GatherOptions.nullable()
						.optional()
						.describe(
							'Gather the messages a person sends in one chat into one `message.received` event (`data.gathered: true`, `data.messages` in order), delivered once the chat has been quiet for `quietSeconds` or `maxWaitSeconds` after its first message. Taps, answers taken by a question, statuses and own sends are delivered alone. A message the contact deletes while held is left out (a burst left empty is not delivered); one they edit is delivered as edited. Null or absent: every message alone.',
						),
				}
			: {}
	) as { gather: z.ZodOptional<z.ZodNullable<typeof GatherOptions>> };
}

const NO_BATCHES =
	'messaging webhooks do not batch: each chat is gathered into one event instead (gather)';

/**
 * Short-link and automation webhooks may ask for batches; a messaging webhook refuses one in words (only null or
 * absent is taken), since it gathers per chat. Typed as every surface's, like the filters.
 */
function batchShape(gathers: boolean) {
	return {
		batch: gathers
			? z.null({ error: NO_BATCHES }).optional().describe(`Not taken: ${NO_BATCHES}`)
			: BatchOptions.nullable()
					.optional()
					.describe(
						'Deliver the events (after the filters) in batches: one event of its own (`batch: true`, type `link.batch` or `automation.batch`, `data.events` in order, each as it would be delivered alone), once the batch holds `maxEvents` or `maxWaitSeconds` after its first event, whichever comes first. Claimed once and redelivered whole. Null or absent: every event alone.',
					),
	} as { batch: z.ZodOptional<z.ZodNullable<typeof BatchOptions>> };
}

/**
 * Webhook registration, the same for all three key kinds but for the event names, the filters, and gathering
 * (messaging) or batches (short links, automation).
 */
function webhookSchemas<E extends z.ZodType<string>>(
	prefix: string,
	eventName: E,
	filters: FilterName[],
	gathers: boolean,
) {
	const Filters = filtersOf(filters);
	const gather = { ...gatherShape(gathers), ...batchShape(gathers) };
	const Webhook = named(
		`${prefix}Webhook`,
		z.looseObject({
			id: Id,
			url: z.string().optional(),
			events: z.array(z.string()).optional(),
			filters: z.record(z.string(), z.unknown()).optional(),
			description: z.string().optional(),
			owner: z
				.string()
				.nullable()
				.optional()
				.describe('Who registered it (`owner` of the registration); null when none was named'),
			requireAcknowledgement: z
				.boolean()
				.optional()
				.describe(
					'true: a delivery counts as delivered only when the 2xx answer acknowledges it (`X-Multichannel-Ack`)',
				),
			secretFingerprint: z
				.string()
				.optional()
				.describe(
					'`sha256:` and the hex SHA-256 of "multichannel webhook secret", a line feed and the signing secret: a receiver compares it with the secret it keeps (a registration that wrote an older one over it refuses every delivery); the secret itself is shown at creation only',
				),
			status: z.enum(['active', 'disabled']).or(z.string()).optional(),
			disabledReason: z.string().nullable().optional(),
			disabledCode: z
				.enum(['failures', 'receiver_gone', 'api'])
				.or(z.string())
				.nullable()
				.optional()
				.describe(
					'Why it is disabled: `failures` (deliveries kept failing; pinged until it acknowledges), `receiver_gone` (404 or 410 for 24 hours; pinged too), `api` (turned off through the API); null while active',
				),
			...gather,
			createdAt: Timestamp.optional(),
			updatedAt: Timestamp.optional(),
		}),
	);
	const WebhookWithSecret = named(
		`${prefix}WebhookWithSecret`,
		Webhook.extend({
			secret: z.string().describe('Signing secret: returned only when the webhook is created'),
			signedClaims: z
				.boolean()
				.optional()
				.describe(
					'true when the service takes claims of this webhook signed with its secret (`claimEventSigned`), so that a receiver needs no API key to claim; absent from a service that does not',
				),
			replaced: z
				.boolean()
				.optional()
				.describe(
					'true when the registration named an `owner` that already had a webhook: that webhook was replaced in place (same id, pending deliveries kept and signed with the new secret; the old secret verifies claims for 10 more minutes)',
				),
		}),
	);
	const Events = z.array(z.union([z.literal('*'), eventName])).min(1);
	const CreateWebhook = named(
		`Create${prefix}Webhook`,
		z.strictObject({
			url: Url,
			events: Events,
			secret: text({ min: 16, max: 200 })
				.optional()
				.describe('Generated by the service when omitted'),
			filters: Filters.optional(),
			...gather,
			description: text({ max: 500 }).optional(),
			owner: text({ min: 1, max: 200 })
				.optional()
				.describe(
					'An opaque key the receiver chooses for itself (an n8n trigger: its n8n instance, workflow and node). Registering again for an owner that has a webhook replaces that webhook in place: the same id, the new URL, events and secret, its pending deliveries kept; so a receiver that moved or re-registered leaves no second webhook behind. A webhook of an owner deleted less than 10 minutes ago is taken back with its pending deliveries. When the URL changes, the service first sends a signed `ping` to the old URL (3 s): if a receiver acknowledges it and its answer does not name the new URL as its own (`url` in the JSON body), another live receiver still owns the webhook (a copy of an n8n, with the same encryption key): the registration is refused with 409 `owner_in_use` and nothing changes. No answer, or an answer naming the new URL (one receiver reached at both), replaces it in place.',
				),
			requireAcknowledgement: z
				.boolean()
				.optional()
				.describe(
					"true: a delivery counts as delivered only when the receiver's 2xx answer acknowledges it, with the request's `X-Multichannel-Delivery-Id` in an `X-Multichannel-Ack` header or as `acknowledged` in a JSON body; any other answer, a bare 2xx included (a proxy, a server still starting), is retried. Default false: any 2xx is delivered, for receivers that cannot acknowledge.",
				),
		}),
	);
	const RotateSecret = named(
		`Rotate${prefix}WebhookSecret`,
		z.strictObject({
			secret: text({ min: 16, max: 200 })
				.optional()
				.describe('The new secret; generated by the service when omitted'),
		}),
	);
	const UpdateWebhook = named(
		`Update${prefix}Webhook`,
		z.strictObject({
			url: Url.optional(),
			events: Events.optional(),
			filters: Filters.optional(),
			...gather,
			description: text({ max: 500 }).optional(),
			enabled: z
				.boolean()
				.optional()
				.describe('Set true to re-enable a webhook the service disabled'),
		}),
	);
	const Delivery = named(
		`${prefix}WebhookDelivery`,
		z.looseObject({
			id: Id,
			eventId: z.string().optional(),
			eventType: z.string().optional(),
			attempt: z.number().optional(),
			status: z
				.enum(['pending', 'held', 'succeeded', 'failed'])
				.or(z.string())
				.optional()
				.describe(
					'`held`: kept while the webhook is disabled (or just deleted by its owner), sent again once it is enabled',
				),
			responseStatus: z.number().nullable().optional(),
			error: z.string().nullable().optional(),
			createdAt: Timestamp.optional(),
			nextAttemptAt: Timestamp.nullable().optional(),
		}),
	);
	const ClaimEvent = named(
		`Claim${prefix}Event`,
		z.strictObject({
			eventId: Id.describe('The `id` of the delivered event (`X-Multichannel-Event-Id`)'),
			deliveryId: Id.optional().describe(
				'The `X-Multichannel-Delivery-Id` of the request being answered. The claim is then a lease on that attempt: it becomes final when the attempt is answered 2xx, and lapses when the attempt gets an error status or no answer in time, so the next attempt can claim and run the event. An attempt that is no longer open is a 409 `attempt_closed`. Without it the claim is final at once.',
			),
		}),
	);
	const EventClaim = named(
		`${prefix}EventClaim`,
		z.looseObject({
			eventId: z.string(),
			claimed: z
				.boolean()
				.describe(
					'true for the first claim of this event id at this webhook (and its retries under the same Idempotency-Key); false for every later one',
				),
			claimedAt: Timestamp.describe('When the first claim was made'),
			final: z
				.boolean()
				.optional()
				.describe(
					'Whether the claim is settled: true once the delivery attempt that made it was answered 2xx (or when it named no attempt). `claimed: false, final: false`: another attempt holds the claim right now; answer with an error status and the event is delivered again, to run if that attempt fails',
				),
		}),
	);
	return {
		Webhook,
		WebhookWithSecret,
		CreateWebhook,
		RotateSecret,
		UpdateWebhook,
		Delivery,
		ClaimEvent,
		EventClaim,
	};
}

/** What becomes of a disabled webhook: said where a webhook is read and where it is turned off. */
const DISABLED_RETENTION =
	'A disabled webhook (`enabled: false` through the API, or disabled by the service after failed deliveries) keeps its events (`held`, at most 10,000), each for 72 hours; one disabled for 72 hours is deleted with its events.';

/** The webhook endpoints every key kind has, under its own path and scopes. */
function webhookOperations<E extends z.ZodType<string>>(
	prefix: string,
	basePath: string,
	eventName: E,
	scopes: { read: Scope; write: Scope },
	filters: FilterName[],
	gathers = false,
) {
	const schemas = webhookSchemas(prefix, eventName, filters, gathers);
	const byId = pathParams('webhookId');
	const item = `${basePath}/{webhookId}`;
	return {
		create: operation({
			method: 'POST',
			path: basePath,
			summary: 'Register a webhook',
			description:
				'A registration for an `owner` whose webhook still delivers to another URL, where a live receiver acknowledges a ping for it without naming the new URL as its own, is a 409 `owner_in_use`: two receivers claim one owner.',
			scope: scopes.write,
			body: schemas.CreateWebhook,
			response: schemas.WebhookWithSecret,
			status: 201,
			creates: true,
		}),
		list: operation({
			method: 'GET',
			path: basePath,
			summary: 'List webhooks',
			scope: scopes.read,
			query: ListQuery,
			response: page(schemas.Webhook),
			status: 200,
			paginated: true,
		}),
		get: operation({
			method: 'GET',
			path: item,
			summary: 'Get a webhook',
			description: DISABLED_RETENTION,
			scope: scopes.read,
			params: byId,
			response: schemas.Webhook,
			status: 200,
		}),
		update: operation({
			method: 'PATCH',
			path: item,
			summary: 'Update a webhook',
			description: DISABLED_RETENTION,
			scope: scopes.write,
			params: byId,
			body: schemas.UpdateWebhook,
			response: schemas.Webhook,
			status: 200,
		}),
		delete: operation({
			method: 'DELETE',
			path: item,
			summary: 'Delete a webhook',
			scope: scopes.write,
			params: byId,
			status: 204,
		}),
		rotateSecret: operation({
			method: 'POST',
			path: `${item}/rotate-secret`,
			summary: "Rotate a webhook's signing secret",
			description:
				'Deliveries from now on, pending ones included, are signed with the new secret; the old one still verifies signed claims for 10 minutes, so a receiver that has not yet stored the new one loses nothing.',
			scope: scopes.write,
			params: byId,
			body: schemas.RotateSecret,
			response: schemas.WebhookWithSecret,
			status: 200,
		}),
		listDeliveries: operation({
			method: 'GET',
			path: `${item}/deliveries`,
			summary: 'List recent delivery attempts of a webhook',
			scope: scopes.read,
			params: byId,
			query: ListQuery,
			response: page(schemas.Delivery),
			status: 200,
			paginated: true,
		}),
		// Receivers claim each delivered event before running it: deliveries are at least once, and a
		// receiver with several processes (n8n in queue mode) has no shared memory of its own to check.
		claimEvent: operation({
			method: 'POST',
			path: `${item}/claims`,
			summary:
				'Claim a delivered event: the first claim of an event id wins, so the receiver runs it exactly once',
			description:
				'An event id never delivered to this webhook is a 404 `unknown_event`; a `deliveryId` of an attempt that is no longer open (it timed out, or was answered) is a 409 `attempt_closed`. A claim naming its attempt is a lease on it: final when that attempt is answered 2xx, lapsed when it is answered otherwise, its connection drops or it times out. An attempt waits 10 s for its answer, and once its event is claimed, 2 minutes from the claim (the receiver is running it).',
			scope: scopes.write,
			params: byId,
			body: schemas.ClaimEvent,
			response: schemas.EventClaim,
			status: 200,
			creates: true,
		}),
		// The same claim with what the receiver holds for its webhook instead of an API key, so that receiving
		// a delivery needs no key at all (in n8n, reading a credential per delivery is costly).
		claimEventSigned: operation({
			method: 'POST',
			path: `${item}/signed-claims`,
			summary: "Claim a delivered event without an API key, signed with the webhook's secret",
			description: [
				"The same claim as `claimEvent`, authenticated by `X-Multichannel-Signature` instead of an API key: signed with the secret of the webhook in the path, in the deliveries' scheme over the method, the path and the raw body (`t=<unix seconds>,v1=<hex HMAC-SHA256(secret, \"<t>.POST <path>\\n<raw body>\")>`, where `<path>` is the request's path from `/api/v1` on, e.g. `/api/v1/webhooks/wh_…/signed-claims`, and `\\n` a line feed), so that a signature is taken by that endpoint and webhook only. A timestamp more than 300 s away, a signature that does not match, or an unknown webhook is a 401, counted with bad API keys against the client's address (60 a minute, then 429).",
				'Each signature is taken once, across restarts of the service: the same signed request again is refused with 409 `claim_replayed` and changes nothing, so a copied claim can never take an event (not even after the claim lapsed). A receiver retrying after a lost answer gets the 409 too; it answers its delivery with an error status, which lapses its claim, and the redelivery claims afresh. For 10 minutes after the secret was rotated (or replaced by a registration of the same owner), a claim signed with the old secret is taken too.',
				'An event id never delivered to this webhook is a 404 `unknown_event`; a `deliveryId` of an attempt that is no longer open is a 409 `attempt_closed`.',
			].join('\n\n'),
			scope: scopes.write,
			signed: 'webhookSecret',
			params: byId,
			body: schemas.ClaimEvent,
			response: schemas.EventClaim,
			status: 200,
		}),
	};
}

export const messagingWebhookOperations = webhookOperations(
	'Messaging',
	'/webhooks',
	MessagingEventName,
	{ read: 'messaging:read', write: 'messaging:write' },
	['instanceIds'],
	true,
);
export const linkWebhookOperations = webhookOperations(
	'Link',
	'/link-webhooks',
	LinkEventName,
	{ read: 'links:read', write: 'links:write' },
	['linkIds'],
);
export const automationWebhookOperations = webhookOperations(
	'Automation',
	'/automation/webhooks',
	AutomationWebhookEventName,
	{ read: 'automation:read', write: 'automation:write' },
	[],
);

/**
 * A key kind's webhook endpoints as its client has them, for its event names `E` (`string` for automation):
 * what the triggers register, check, update, delete and claim events with.
 */
export type WebhookEndpoints<E extends string> = Client<{
	webhooks: ReturnType<typeof webhookOperations<z.ZodType<E, E>>>;
}>['webhooks'];
