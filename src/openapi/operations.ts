import type { z } from 'zod/v4';

import type { KeyKind } from '../client/api';
import { EventEnvelope, eventData } from '../client/events';
import type { Operation } from '../client/operation';
import type { JsonSchema, SchemaCollector } from './collector';

/** The OpenAPI entries of the contract's operations (`paths`) and of the webhook events (`webhooks`). */

export const SECURITY_SCHEMES: Record<KeyKind, string> = {
	workspace: 'workspaceKey',
	shortLink: 'shortLinkKey',
	automation: 'automationKey',
};

/** How a receiver knows a delivery comes from the service: the signature over the raw body. */
export const WEBHOOK_SIGNATURE_SCHEME = 'webhookSignature';

export const ERROR_RESPONSES: Record<string, [string, string]> = {
	'400': [
		'BadRequest',
		'The request is invalid (`validation_failed`); `details` names each field.',
	],
	'401': ['Unauthorized', 'The API key is missing, unknown or revoked.'],
	'403': ['Forbidden', 'The key is of another kind (surface) or lacks the scope.'],
	'404': ['NotFound', 'No such resource in this workspace.'],
	'410': [
		'Gone',
		'It existed but the service no longer keeps it (the file of a media message past its retention).',
	],
	'409': [
		'Conflict',
		'The resource is in a state that does not allow this, or the Idempotency-Key was reused with another body.',
	],
	'405': [
		'MethodNotAllowed',
		'A method this path does not take (any the document does not list on it); `Allow` lists those it takes.',
	],
	'413': ['PayloadTooLarge', 'The body or uploaded file is too large.'],
	'429': ['RateLimited', 'Too many requests; wait for `Retry-After`.'],
	'500': ['ServerError', 'The service failed; safe to retry reads and idempotent writes.'],
	'503': ['Unavailable', 'The service is temporarily unavailable; retry after a backoff.'],
};

export const RATE_LIMIT_HEADERS = {
	'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
	'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
	'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
	'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
};

/** The top-level media types (RFC 6838) of files; a download answers the file's own type, one of these. */
const FILE_MEDIA_TYPES = ['application', 'audio', 'font', 'image', 'model', 'text', 'video'];

/** What an answer that is a file says of it. */
const FILE_HEADERS = {
	'Content-Type': {
		description: 'The MIME type of the file',
		schema: { type: 'string' },
	},
	'Content-Disposition': {
		description: '`attachment`, with the file name (`filename`, and `filename*` in UTF-8)',
		schema: { type: 'string' },
	},
	'Content-Length': { description: 'The size of the file in bytes', schema: { type: 'integer' } },
};

export function pathOperation(
	collector: SchemaCollector,
	keyKind: KeyKind,
	resource: string,
	name: string,
	operation: Operation,
) {
	const parameters: JsonSchema[] = [];
	for (const [param, schema] of Object.entries(operation.params?.shape ?? {})) {
		const { description, ...json } = collector.convert(schema as z.ZodType, 'input');
		const named = /^(\w+)Id$/.exec(param)?.[1];
		const said =
			description ??
			(named && `ID of the ${named.replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`)}`);
		parameters.push({
			name: param,
			in: 'path',
			required: true,
			...(said ? { description: said } : {}),
			schema: json,
		});
	}
	for (const [param, schema] of Object.entries(operation.query?.shape ?? {})) {
		const zodSchema = schema as z.ZodType;
		// The description is the parameter's, said once.
		const { description, ...json } = collector.convert(zodSchema, 'input');
		parameters.push({
			name: param,
			in: 'query',
			required: !zodSchema.safeParse(undefined).success,
			...(typeof description === 'string' ? { description } : {}),
			schema: json,
		});
	}
	if (operation.creates) parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
	if (operation.signed === 'webhookSecret')
		parameters.push({ $ref: '#/components/parameters/SignatureHeader' });

	const result: JsonSchema = {
		operationId: `${keyKind}.${resource}.${name}`,
		tags: [tagName(keyKind, resource)],
		summary: operation.summary,
		...(operation.description ? { description: operation.description } : {}),
		...securityOf(keyKind, operation),
		...(operation.paginated ? { 'x-paginated': true } : {}),
		...(parameters.length ? { parameters } : {}),
	};
	if (operation.body) {
		const schema = collector.convert(operation.body, 'input');
		if (operation.upload) addFilePart(collector, schema);
		result.requestBody = {
			required: true,
			content: { [operation.upload ? 'multipart/form-data' : 'application/json']: { schema } },
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
	if (operation.binary) {
		Object.assign(success.headers as JsonSchema, FILE_HEADERS);
		// The file's own type, as it was sent: one of the top-level media types a file can have.
		success.content = Object.fromEntries(
			FILE_MEDIA_TYPES.map((type) => [`${type}/*`, { schema: { description: 'The file' } }]),
		);
	}
	const responses: JsonSchema = { [String(operation.status)]: success };
	if (operation.foundStatus) responses[String(operation.foundStatus)] = success;
	// 405 is what the other methods of the path get: OpenAPI has no place for them but the path's operations.
	// A signed request has no key whose kind or scope could be wrong: no 403.
	const errors = ['400', '401', '405', '429', '500', '503'];
	if (!operation.signed) errors.push('403');
	if (operation.params) errors.push('404');
	if (operation.method !== 'GET') errors.push('409');
	// The sandbox reads a body on every operation that takes one, up to its limit (1 MiB of JSON, 16 MiB uploaded).
	if (operation.upload || operation.body) errors.push('413');
	if (operation.binary) errors.push('410');
	for (const status of operation.alsoAnswers ?? []) {
		if (!errors.includes(String(status))) errors.push(String(status));
	}
	for (const status of errors.sort()) {
		responses[status] = { $ref: `#/components/responses/${ERROR_RESPONSES[status][0]}` };
	}
	result.responses = responses;
	return result;
}

/**
 * A multipart upload's form is its fields and the `file` part, in one object schema: the fields' schema refuses
 * unknown properties, so a `file` added beside it (`allOf`) would be required and refused at once.
 */
function addFilePart(collector: SchemaCollector, ref: JsonSchema) {
	const name = String(ref.$ref).replace('#/components/schemas/', '');
	const form = collector.components[name];
	if (!form) throw new Error('The fields of an upload are a named schema');
	collector.components[name] = {
		...form,
		properties: {
			...(form.properties as JsonSchema),
			file: {
				type: 'string',
				contentMediaType: 'application/octet-stream',
				description: 'The file, as a part with its file name and Content-Type',
			},
		},
		required: [...((form.required as string[] | undefined) ?? []), 'file'],
	};
}

/**
 * A key of the surface and its scope; or the signature that stands in for the key: a header, or the signed URL
 * itself (no scheme OpenAPI can name: the operation asks for none).
 */
function securityOf(keyKind: KeyKind, operation: Operation): JsonSchema {
	if (operation.signed === 'webhookSecret')
		return { security: [{ [WEBHOOK_SIGNATURE_SCHEME]: [] }] };
	if (operation.signed === 'url') return { security: [] };
	return { security: [{ [SECURITY_SCHEMES[keyKind]]: [] }], 'x-scope': operation.scope };
}

export function tagName(keyKind: KeyKind, resource: string) {
	const prefix =
		keyKind === 'workspace' ? '' : keyKind === 'shortLink' ? 'Short link ' : 'Automation ';
	const text = `${prefix}${resource}`;
	return text.charAt(0).toUpperCase() + text.slice(1);
}

export function webhookEvents(collector: SchemaCollector) {
	const envelope = collector.convert(EventEnvelope, 'output');
	const webhooks: JsonSchema = {};
	for (const [type, data] of Object.entries(eventData)) {
		webhooks[type] = {
			post: {
				// URL-safe: `automation.*` becomes `event.automation.any`.
				operationId: `event.${type.replace('*', 'any')}`,
				summary: `${type} delivery`,
				description: 'Delivered at least once: de-duplicate on the event id.',
				security: [{ [WEBHOOK_SIGNATURE_SCHEME]: [] }],
				parameters: [
					{ $ref: '#/components/parameters/SignatureHeader' },
					{ $ref: '#/components/parameters/EventIdHeader' },
					{ $ref: '#/components/parameters/DeliveryAttemptHeader' },
					{ $ref: '#/components/parameters/DeliveryIdHeader' },
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
