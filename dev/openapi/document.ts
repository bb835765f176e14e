import { z } from 'zod/v4';

import { api, SURFACE_TITLES, type Surface } from '../src/client/api';
import { EventEnvelope, eventData } from '../src/client/events';
import type { Operation } from '../src/client/operation';
import { contractRegistry, ErrorBody } from '../src/client/schemas';
import {
	DELIVERY_ATTEMPT_HEADER,
	EVENT_ID_HEADER,
	SIGNATURE_HEADER,
} from '../src/client/signature';

/**
 * Builds the OpenAPI 3.1 document from the operation descriptions and zod schemas of `src/client/`, the one
 * source of truth. `npm run openapi` writes it to docs/openapi.json; a test fails when that file is stale.
 */

type JsonSchema = Record<string, unknown>;

const SECURITY_SCHEMES: Record<Surface, string> = {
	workspace: 'workspaceKey',
	shortLink: 'shortLinkKey',
	automation: 'automationKey',
};

const ERROR_RESPONSES: Record<string, [string, string]> = {
	'400': [
		'BadRequest',
		'The request is invalid (`validation_failed`); `details` names each field.',
	],
	'401': ['Unauthorized', 'The API key is missing, unknown or revoked.'],
	'403': ['Forbidden', 'The key is of another kind (surface) or lacks the scope.'],
	'404': ['NotFound', 'No such resource in this workspace.'],
	'409': [
		'Conflict',
		'The resource is in a state that does not allow this, or the Idempotency-Key was reused with another body.',
	],
	'413': ['PayloadTooLarge', 'The body or uploaded file is too large.'],
	'429': ['RateLimited', 'Too many requests; wait for `Retry-After`.'],
	'500': ['ServerError', 'The service failed; safe to retry reads and idempotent writes.'],
	'503': ['Unavailable', 'The service is temporarily unavailable; retry after a backoff.'],
};

const RATE_LIMIT_HEADERS = {
	'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
	'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
	'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
	'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
};

class SchemaCollector {
	readonly components: Record<string, JsonSchema> = {};

	/** Converts a zod schema, moving every named sub-schema into `components.schemas`. */
	convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
		const json = z.toJSONSchema(schema, {
			target: 'draft-2020-12',
			io,
			metadata: contractRegistry,
			unrepresentable: 'any',
		}) as JsonSchema;
		const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
		delete json.$defs;
		delete json.$schema;
		for (const [id, def] of Object.entries(defs)) this.add(id, def);
		const rootId = contractRegistry.get(schema)?.id;
		if (rootId) {
			this.add(rootId, json);
			return { $ref: `#/components/schemas/${rootId}` };
		}
		return rewriteRefs(json) as JsonSchema;
	}

	private add(id: string, schema: JsonSchema) {
		const clean = rewriteRefs(schema) as JsonSchema;
		delete clean.id;
		const existing = this.components[id];
		if (existing && JSON.stringify(existing) !== JSON.stringify(clean)) {
			throw new Error(`Schema ${id} is used both as request and response and differs between them`);
		}
		this.components[id] = clean;
	}
}

function rewriteRefs(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(rewriteRefs);
	if (value && typeof value === 'object') {
		const result: Record<string, unknown> = {};
		for (const [key, child] of Object.entries(value)) {
			if (key === '$ref' && typeof child === 'string') {
				result[key] = child.replace(/^#\/\$defs\//, '#/components/schemas/');
			} else if (key !== '$schema') {
				result[key] = rewriteRefs(child);
			}
		}
		return result;
	}
	return value;
}

function pathOperation(
	collector: SchemaCollector,
	surface: Surface,
	resource: string,
	name: string,
	operation: Operation,
) {
	const parameters: JsonSchema[] = [];
	for (const [param, schema] of Object.entries(operation.params?.shape ?? {})) {
		parameters.push({
			name: param,
			in: 'path',
			required: true,
			schema: collector.convert(schema as z.ZodType, 'input'),
		});
	}
	for (const [param, schema] of Object.entries(operation.query?.shape ?? {})) {
		const zodSchema = schema as z.ZodType;
		const json = collector.convert(zodSchema, 'input');
		parameters.push({
			name: param,
			in: 'query',
			required: !zodSchema.safeParse(undefined).success,
			...(typeof json.description === 'string' ? { description: json.description } : {}),
			schema: json,
		});
	}
	if (operation.creates) parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });

	const result: JsonSchema = {
		operationId: `${surface}.${resource}.${name}`,
		tags: [tagName(surface, resource)],
		summary: operation.summary,
		security: [{ [SECURITY_SCHEMES[surface]]: [] }],
		'x-scope': operation.scope,
		...(operation.paginated ? { 'x-paginated': true } : {}),
		...(parameters.length ? { parameters } : {}),
	};
	if (operation.body) {
		const schema = collector.convert(operation.body, 'input');
		result.requestBody = {
			required: true,
			content: operation.upload
				? {
						'multipart/form-data': {
							schema: {
								allOf: [
									schema,
									{
										type: 'object',
										required: ['file'],
										properties: {
											file: { type: 'string', contentMediaType: 'application/octet-stream' },
										},
									},
								],
							},
						},
					}
				: { 'application/json': { schema } },
		};
	}
	const success: JsonSchema = {
		description: operation.summary,
		headers: {
			...RATE_LIMIT_HEADERS,
			...(operation.creates
				? { 'Idempotency-Replayed': { $ref: '#/components/headers/Idempotency-Replayed' } }
				: {}),
		},
	};
	if (operation.response) {
		success.content = {
			'application/json': { schema: collector.convert(operation.response, 'output') },
		};
	}
	const responses: JsonSchema = { [String(operation.status)]: success };
	const errors = ['400', '401', '403', '429', '500', '503'];
	if (operation.params) errors.push('404');
	if (operation.method !== 'GET') errors.push('409');
	if (operation.upload) errors.push('413');
	for (const status of errors.sort()) {
		responses[status] = { $ref: `#/components/responses/${ERROR_RESPONSES[status][0]}` };
	}
	result.responses = responses;
	return result;
}

function tagName(surface: Surface, resource: string) {
	const prefix =
		surface === 'workspace' ? '' : surface === 'shortLink' ? 'Short link ' : 'Automation ';
	const text = `${prefix}${resource}`;
	return text.charAt(0).toUpperCase() + text.slice(1);
}

function webhookEvents(collector: SchemaCollector) {
	const envelope = collector.convert(EventEnvelope, 'output');
	const webhooks: JsonSchema = {};
	for (const [type, data] of Object.entries(eventData)) {
		webhooks[type] = {
			post: {
				summary: `${type} delivery`,
				description:
					'Signed with the webhook secret; receivers verify the signature over the raw body and reject a ' +
					'`t` more than 300 s away. Delivered at least once: de-duplicate on the event id.',
				parameters: [
					{ $ref: '#/components/parameters/SignatureHeader' },
					{ $ref: '#/components/parameters/EventIdHeader' },
					{ $ref: '#/components/parameters/DeliveryAttemptHeader' },
				],
				requestBody: {
					required: true,
					content: {
						'application/json': {
							schema: {
								allOf: [
									envelope,
									{
										type: 'object',
										properties: {
											type: type.endsWith('*')
												? { type: 'string', pattern: '^automation\\.' }
												: { const: type },
											data: collector.convert(data, 'output'),
										},
									},
								],
							},
						},
					},
				},
				responses: {
					'2XX': {
						description:
							'Received. Any other answer, or none within 10 s, is retried with backoff (8 attempts).',
					},
					'401': { description: 'The signature was missing, wrong or stale.' },
				},
			},
		};
	}
	return webhooks;
}

export function buildOpenApiDocument(): JsonSchema {
	const collector = new SchemaCollector();
	const paths: Record<string, Record<string, unknown>> = {};
	const tags: JsonSchema[] = [];
	for (const [surface, resources] of Object.entries(api) as Array<
		[Surface, Record<string, Record<string, Operation>>]
	>) {
		for (const [resource, operations] of Object.entries(resources)) {
			tags.push({ name: tagName(surface, resource), description: SURFACE_TITLES[surface] });
			for (const [name, operation] of Object.entries(operations)) {
				const path = `/api/v1${operation.path}`;
				const method = operation.method.toLowerCase();
				if (paths[path]?.[method]) throw new Error(`Two operations on ${operation.method} ${path}`);
				paths[path] = {
					...paths[path],
					[method]: pathOperation(collector, surface, resource, name, operation),
				};
			}
		}
	}
	tags.push({
		name: 'Short link redirect',
		description: 'The public short URL, served on the link host',
	});
	paths['/{code}'] = {
		get: {
			operationId: 'redirect.follow',
			tags: ['Short link redirect'],
			summary: 'Follow a short link: redirects to its destination and records a click',
			servers: [
				{ url: '{linkHost}', variables: { linkHost: { default: 'http://127.0.0.1:8787' } } },
			],
			parameters: [
				{ name: 'code', in: 'path', required: true, schema: { type: 'string' } },
				{ name: 'Referer', in: 'header', required: false, schema: { type: 'string' } },
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
				'404': { description: 'Unknown code' },
				'410': { description: 'The link has expired' },
			},
		},
	};

	const errorSchema = collector.convert(ErrorBody, 'output');
	const responses: JsonSchema = {};
	for (const [status, [name, description]] of Object.entries(ERROR_RESPONSES)) {
		responses[name] = {
			description,
			headers: {
				...RATE_LIMIT_HEADERS,
				...(status === '429' || status === '503'
					? { 'Retry-After': { $ref: '#/components/headers/Retry-After' } }
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
						'`t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`; several `v1` during secret rotation.',
					schema: { type: 'string', pattern: '^t=\\d+(,v1=[0-9a-f]{64})+$' },
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
				workspaceKey: { type: 'http', scheme: 'bearer', description: SURFACE_TITLES.workspace },
				shortLinkKey: { type: 'http', scheme: 'bearer', description: SURFACE_TITLES.shortLink },
				automationKey: { type: 'http', scheme: 'bearer', description: SURFACE_TITLES.automation },
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
