import type { z } from 'zod/v4';

/** Where every operation's path starts on the service. */
export const API_PREFIX = '/api/v1';

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
	/** Said in the OpenAPI document below the summary, where one line is not enough. */
	description?: string;
	/** The scope a key needs; for a `signed` operation, the scope of the key its signature stands in for. */
	scope: Scope;
	/**
	 * Authenticated without an API key: `webhookSecret` by `X-Multichannel-Signature` over the body, signed
	 * with the secret of the webhook in the path (as deliveries are), which the client adds itself
	 * (`CallOptions`); `url` by the path itself, a URL the service signed and handed out (a file's
	 * `downloadUrl`), which the client sends as it is.
	 */
	signed?: 'webhookSecret' | 'url';
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
	/**
	 * A create that may find what it would make (a campaign by its `reference`): when its answer says
	 * `created: false`, it is answered with this status instead of `status`.
	 */
	foundStatus?: 200;
	/** Error statuses it answers beyond those every operation of its method may (a read's 409), said in `description`. */
	alsoAnswers?: Array<409>;
	/** A write that creates something: accepts `Idempotency-Key`, and is retried only under one. */
	creates?: true;
	/** Answers one page `{ data, nextCursor }` and takes `limit` + `cursor`. */
	paginated?: true;
}

/** Keeps the literal types of a description so that client methods are typed from it. */
export function operation<const O extends Operation>(description: O): O {
	return description;
}
