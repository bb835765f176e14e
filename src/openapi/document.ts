import { api, eachOperation, KEY_KIND_TITLES } from '../client/api';
import { ErrorBody } from '../client/schemas';
import {
	DELIVERY_ATTEMPT_HEADER,
	DELIVERY_ID_HEADER,
	EVENT_ID_HEADER,
	SIGNATURE_HEADER,
} from '../client/signature';
import { SchemaCollector, type JsonSchema } from './collector';
import {
	ERROR_RESPONSES,
	pathOperation,
	RATE_LIMIT_HEADERS,
	tagName,
	WEBHOOK_SIGNATURE_SCHEME,
	webhookEvents,
} from './operations';

/**
 * Builds the OpenAPI 3.1 document from the operation descriptions and zod schemas of `src/client/`, the one
 * source of truth. `npm run openapi` writes it to docs/openapi.json; a test fails when that file is stale.
 */

export function buildOpenApiDocument(): JsonSchema {
	const collector = new SchemaCollector();
	const paths: Record<string, Record<string, unknown>> = {};
	const tags: JsonSchema[] = [];
	for (const { keyKind, resource, name, operation } of eachOperation(api)) {
		const tag = tagName(keyKind, resource);
		if (!tags.some((entry) => entry.name === tag))
			tags.push({ name: tag, description: KEY_KIND_TITLES[keyKind] });
		const path = `/api/v1${operation.path}`;
		const method = operation.method.toLowerCase();
		if (paths[path]?.[method]) throw new Error(`Two operations on ${operation.method} ${path}`);
		paths[path] = {
			...paths[path],
			[method]: pathOperation(collector, keyKind, resource, name, operation),
		};
	}
	const errorSchema = collector.convert(ErrorBody, 'output');
	tags.push({
		name: 'Short link redirect',
		description: 'The public short URL, served on the link host',
	});
	paths['/{code}'] = {
		get: {
			operationId: 'redirect.follow',
			tags: ['Short link redirect'],
			summary: 'Follow a short link: redirects to its destination and records a click',
			// Public: whoever has the short URL opens it, with no key.
			security: [],
			servers: [
				{ url: '{linkHost}', variables: { linkHost: { default: 'http://127.0.0.1:8787' } } },
			],
			parameters: [
				{
					name: 'code',
					in: 'path',
					required: true,
					description: "The link's code: the last path segment of its `shortUrl`",
					schema: { type: 'string' },
				},
				{
					name: 'Referer',
					in: 'header',
					required: false,
					description: "The page the visitor came from: the click's `referrer`",
					schema: { type: 'string' },
				},
				{
					name: 'CF-IPCountry',
					in: 'header',
					required: false,
					description: 'Country of the visitor, ISO 3166-1 alpha-2',
					schema: { type: 'string' },
				},
			],
			responses: {
				'302': {
					description: 'Redirect to the destination',
					headers: { Location: { schema: { type: 'string' } } },
				},
				'404': {
					description: 'Unknown code',
					content: { 'application/json': { schema: errorSchema } },
				},
				'410': {
					description: 'The link has expired',
					content: { 'application/json': { schema: errorSchema } },
				},
				// It never answers 2xx: a redirect, or an error with the usual body (405 for a method other than GET or HEAD).
				default: {
					description: 'Any other error',
					content: { 'application/json': { schema: errorSchema } },
				},
			},
		},
	};

	const responses: JsonSchema = {};
	for (const [status, [name, description]] of Object.entries(ERROR_RESPONSES)) {
		responses[name] = {
			description,
			headers: {
				...RATE_LIMIT_HEADERS,
				...(status === '429' || status === '503'
					? { 'Retry-After': { $ref: '#/components/headers/Retry-After' } }
					: {}),
				...(status === '405'
					? { Allow: { description: 'The methods the path takes', schema: { type: 'string' } } }
					: {}),
			},
			content: { 'application/json': { schema: errorSchema } },
		};
	}
	const webhooks = webhookEvents(collector);

	return {
		openapi: '3.1.0',
		info: {
			title: 'Multichannel API',
			version: '1.0.0',
			description:
				'The Multichannel service as this project fixes it: messaging channel (workspace key), short links and ' +
				'automation. Every path lives under `/api/v1` of the base URL. Generated from the zod schemas in ' +
				'`src/client/` by `npm run openapi`; do not edit by hand.',
			license: { name: 'MIT', identifier: 'MIT' },
		},
		servers: [{ url: '{baseUrl}', variables: { baseUrl: { default: 'http://127.0.0.1:8787' } } }],
		tags,
		paths,
		webhooks,
		components: {
			schemas: Object.fromEntries(
				Object.entries(collector.components).sort(([a], [b]) => a.localeCompare(b)),
			),
			responses,
			parameters: {
				IdempotencyKey: {
					name: 'Idempotency-Key',
					in: 'header',
					required: false,
					description:
						'The same key with the same body within 24 h returns the first response and does nothing again; ' +
						'with another body it is a 409.',
					schema: { type: 'string', minLength: 1, maxLength: 255 },
				},
				SignatureHeader: {
					name: headerName(SIGNATURE_HEADER),
					in: 'header',
					required: true,
					description:
						'The signature (see the `webhookSignature` security scheme); several `v1` during secret rotation.',
					schema: { type: 'string', pattern: '^t=[0-9]+(,v1=[0-9a-f]{64})+$' },
				},
				EventIdHeader: {
					name: headerName(EVENT_ID_HEADER),
					in: 'header',
					required: true,
					description: 'The event id, the same across redeliveries.',
					schema: { type: 'string' },
				},
				DeliveryAttemptHeader: {
					name: headerName(DELIVERY_ATTEMPT_HEADER),
					in: 'header',
					required: true,
					description: '1 for the first delivery, up to 8.',
					schema: { type: 'integer', minimum: 1, maximum: 8 },
				},
				DeliveryIdHeader: {
					name: headerName(DELIVERY_ID_HEADER),
					in: 'header',
					required: true,
					description:
						'Unique per request sent; named in a claim so that the claim is released if this request gets an error status back.',
					schema: { type: 'string' },
				},
			},
			headers: {
				'X-RateLimit-Limit': {
					description: 'Requests allowed in the current window',
					schema: { type: 'integer' },
				},
				'X-RateLimit-Remaining': {
					description: 'Requests left in the current window',
					schema: { type: 'integer' },
				},
				'X-RateLimit-Reset': {
					description: 'Unix seconds at which the window resets',
					schema: { type: 'integer' },
				},
				'Retry-After': {
					description: 'Seconds to wait, or an HTTP date',
					schema: { type: 'string' },
				},
				'X-Request-Id': {
					description: 'Identifies the request in support requests',
					schema: { type: 'string' },
				},
				'Idempotency-Replayed': {
					description:
						'`true` when this is the stored answer to an earlier request with the same Idempotency-Key',
					schema: { type: 'string', enum: ['true'] },
				},
			},
			securitySchemes: {
				workspaceKey: { type: 'http', scheme: 'bearer', description: KEY_KIND_TITLES.workspace },
				shortLinkKey: { type: 'http', scheme: 'bearer', description: KEY_KIND_TITLES.shortLink },
				automationKey: { type: 'http', scheme: 'bearer', description: KEY_KIND_TITLES.automation },
				[WEBHOOK_SIGNATURE_SCHEME]: {
					type: 'apiKey',
					in: 'header',
					name: headerName(SIGNATURE_HEADER),
					description:
						'Webhook deliveries (the service calling the receiver) are signed with the webhook secret: ' +
						'`t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`. Receivers recompute the HMAC ' +
						'over the raw body, compare in constant time, and refuse a missing or wrong signature or a `t` ' +
						'more than 300 s away with 401. A signed claim (`claimEventSigned`) is the same scheme the other ' +
						'way round, over `"<t>.POST <path>\\n<raw body>"`: the receiver signs its claim with the webhook ' +
						'secret, with the method and path, and the service checks it.',
				},
			},
		},
	};
}

function headerName(lower: string) {
	return lower.replace(
		/(^|-)([a-z])/g,
		(_, dash: string, letter: string) => dash + letter.toUpperCase(),
	);
}
