import type { z } from 'zod/v4';

import { ListQuery, page, pathParams, webhookSchemas } from './schemas';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export type Scope =
	| 'messaging:read'
	| 'messaging:write'
	| 'links:read'
	| 'links:write'
	| 'automation:read'
	| 'automation:write';

/**
 * One endpoint of the contract, described once. The typed client, the OpenAPI document and the sandbox
 * are all derived from these descriptions, so a path or a body is never written twice.
 */
export interface Operation {
	method: HttpMethod;
	/** Below `/api/v1`, with `{name}` placeholders for the path parameters. */
	path: string;
	summary: string;
	scope: Scope;
	params?: z.ZodObject;
	query?: z.ZodObject;
	body?: z.ZodType;
	/** Sent as multipart/form-data: the body's fields plus a `file` part. */
	upload?: true;
	/** Absent for operations answering 204 No Content, or a file (`binary`). */
	response?: z.ZodType;
	/** Answers the bytes of a file (any content type) instead of JSON; the client gives a `DownloadedFile`. */
	binary?: true;
	status: 200 | 201 | 202 | 204;
	/** A write that creates something: accepts `Idempotency-Key`, and is retried only under one. */
	creates?: true;
	/** Answers one page `{ data, nextCursor }` and takes `limit` + `cursor`. */
	paginated?: true;
}

/** Keeps the literal types of a description so that client methods are typed from it. */
export function operation<const O extends Operation>(description: O): O {
	return description;
}

/** The webhook endpoints every surface has, under its own path and scopes. */
export function webhookOperations<E extends z.ZodType<string>>(
	prefix: string,
	basePath: string,
	eventName: E,
	scopes: { read: Scope; write: Scope },
) {
	const schemas = webhookSchemas(prefix, eventName);
	const byId = pathParams('webhookId');
	const item = `${basePath}/{webhookId}`;
	return {
		schemas,
		operations: {
			create: operation({
				method: 'POST',
				path: basePath,
				summary: 'Register a webhook',
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
				scope: scopes.read,
				params: byId,
				response: schemas.Webhook,
				status: 200,
			}),
			update: operation({
				method: 'PATCH',
				path: item,
				summary: 'Update a webhook',
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
				scope: scopes.write,
				params: byId,
				body: schemas.ClaimEvent,
				response: schemas.EventClaim,
				status: 200,
				creates: true,
			}),
		},
	};
}
