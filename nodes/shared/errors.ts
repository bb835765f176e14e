import {
	NodeApiError,
	NodeOperationError,
	type Failure,
	type INode,
	type JsonObject,
} from 'n8n-workflow';

import {
	ApiError,
	AuthenticationError,
	ConnectionError,
	MultichannelError,
	NotFoundError,
	PermissionDeniedError,
	RateLimitError,
	redactSecrets,
	RequestValidationError,
	ServerError,
	TimeoutError,
	UnexpectedResponseError,
	type KeyKind,
	type ValidationIssue,
} from '../../src/client';
import { cut, messageOf, redactedCopy, type Clean } from './redaction';
import { tooSlow, unreachable } from './unreachable';
import { withArticle } from './words';

/** The console page where keys are generated, on the service's host. */
const CONSOLE_PATH = '/user/api';

/** How messages name each kind of key: "the short-link API key". */
const KEY_KIND_WORDS: Record<KeyKind, string> = {
	workspace: 'workspace',
	shortLink: 'short-link',
	automation: 'automation',
};

/** What the node knows about the call that failed, to say what went wrong in the user's terms. */
export interface ErrorContext {
	/** The input item being processed; absent outside item processing (list searches). */
	itemIndex?: number;
	/** The kind of key the node's credential holds. */
	keyKind: KeyKind;
	/** The scope the operation needs, e.g. `messaging:read`. */
	scope?: string;
	/** What the operation works on, for "not found": "model". */
	noun?: string;
	/** Parameter names as the user sees them, by the client's field names: `{ modelId: 'Model' }`. */
	fields?: Record<string, string>;
	/** Values that must never appear in a message: the API key. */
	secrets?: string[];
	/** The service's address from the credential (normalised base URL), to name it and its console. */
	serviceUrl?: string;
}

export type NodeError = NodeApiError | NodeOperationError;

/**
 * n8n's own errors, recognised by name rather than `instanceof`: n8n loads its own copy of n8n-workflow, and
 * the error n8n raised (a missing binary field, say) may come from another copy than the one this package
 * resolves, whose classes are then different objects. n8n-workflow names each error after its class.
 */
function isNodeOperationError(error: unknown): error is NodeOperationError {
	return (
		error instanceof NodeOperationError ||
		(error as Error | undefined)?.name === 'NodeOperationError'
	);
}

function isNodeApiError(error: unknown): error is NodeApiError {
	return error instanceof NodeApiError || (error as Error | undefined)?.name === 'NodeApiError';
}

/**
 * The one place where anything thrown while running an operation becomes the error n8n shows: API failures
 * become `NodeApiError`, input mistakes `NodeOperationError`, each with a message a person can act on, the
 * item it concerns, and nothing secret. The client's errors are already redacted; this redacts again with
 * the credential's own key, in case a server echoes it back.
 */
export function toNodeError(node: INode, error: unknown, context: ErrorContext): NodeError {
	const clean = (text: string) => redactSecrets(text, context.secrets ?? []);
	const item = context.itemIndex === undefined ? '' : ` [item ${context.itemIndex}]`;
	try {
		return mapError(node, error, context, clean, item);
	} catch {
		// Mapping must never throw: whatever was thrown (a hostile shape, say), the item still fails with the
		// best message that can be read from it, and "Continue On Fail" still applies.
		return new NodeOperationError(
			node,
			`${cut(clean(messageOf(error))) || 'Unknown error'}${item}`,
			{
				itemIndex: context.itemIndex,
				description: 'The error could not be read in full; this is what could be read of it.',
			},
		);
	}
}

function mapError(
	node: INode,
	error: unknown,
	context: ErrorContext,
	clean: Clean,
	item: string,
): NodeError {
	const itemIndex = context.itemIndex;

	// Input mistakes the node itself reported: kept as they are, cleaned and tied to the item.
	if (isNodeOperationError(error)) {
		error.message = clean(error.message);
		if (error.description) error.description = clean(error.description);
		error.context ??= {};
		if (itemIndex !== undefined && error.context.itemIndex === undefined) {
			error.context.itemIndex = itemIndex;
		}
		return error;
	}

	// A failure n8n's HTTP layer wrapped itself (TLS and the like): rebuilt from its message and code, so that
	// the request it carries (headers included) does not travel on.
	if (isNodeApiError(error)) {
		const said = clean(error.message);
		const code = error.httpCode ?? undefined;
		if (code && !/^\d{3}$/.test(code)) {
			return new NodeApiError(
				node,
				{ message: said, systemErrorCode: code },
				{ ...unreachable(context.serviceUrl, code, said), itemIndex },
			);
		}
		return new NodeApiError(node, code ? { message: said, httpCode: code } : { message: said }, {
			message: said,
			description: error.description ? clean(error.description) : undefined,
			httpCode: code,
			itemIndex,
		});
	}

	if (error instanceof RequestValidationError) {
		const label = (issue: ValidationIssue) => fieldLabel(issue.field, context.fields);
		const [first] = error.issues;
		return new NodeOperationError(
			node,
			clean(
				first
					? `Invalid value for "${label(first)}"${item}: ${first.message}`
					: `Invalid input${item}`,
			),
			{
				itemIndex,
				description: clean(
					error.issues.map((issue) => `${label(issue)}: ${issue.message}`).join('\n'),
				),
			},
		);
	}

	if (error instanceof ApiError) return apiError(node, error, context, clean, item);

	if (error instanceof TimeoutError) {
		return new NodeApiError(node, plain(error, clean), {
			message: tooSlow(error.origin ?? context.serviceUrl),
			description: clean(
				`${error.message}. The request was retried before giving up. Check that the base URL in the credential points at the service and that it is up.`,
			),
			itemIndex,
			failure: { cause: 'temporarily-unavailable' },
		});
	}

	if (error instanceof ConnectionError) {
		const { message, description } = unreachable(
			error.origin ?? context.serviceUrl,
			error.systemCode,
			clean(error.message),
		);
		return new NodeApiError(node, plain(error, clean), {
			message,
			description,
			itemIndex,
			failure: { cause: 'temporarily-unavailable' },
		});
	}

	if (error instanceof UnexpectedResponseError) {
		return new NodeApiError(node, plain(error, clean), {
			message: 'The Multichannel service sent an answer the node cannot read',
			description: clean(
				`${error.message}. Check that the base URL in the credential points at the Multichannel API.`,
			),
			itemIndex,
		});
	}

	if (error instanceof MultichannelError && error.code === 'invalid_base_url') {
		return new NodeOperationError(node, 'The base URL in the credential is not valid', {
			itemIndex,
			description: clean(
				`${error.message}. Enter the address of the Multichannel API, such as https://api.example.com.`,
			),
			failure: { cause: 'configuration-invalid' },
		});
	}

	return new NodeOperationError(node, `${cut(clean(messageOf(error))) || 'Unknown error'}${item}`, {
		itemIndex,
	});
}

/** An answer with an error status: the message says what to do about it. */
function apiError(
	node: INode,
	error: ApiError,
	context: ErrorContext,
	clean: Clean,
	item: string,
): NodeApiError {
	const said = clean(error.message).replace(/\.+$/, '');
	const reference = error.requestId ? ` Request ID: ${error.requestId}.` : '';
	const details = formatDetails(error.details, clean);
	const options = {
		httpCode: String(error.status),
		itemIndex: context.itemIndex,
	};
	const response = plain(error, clean);
	// The console of the credential's service: built from its base URL (a key never goes into a URL).
	const consoleUrl = `${context.serviceUrl ?? ''}${CONSOLE_PATH}`;
	const keyKind = KEY_KIND_WORDS[context.keyKind];

	if (error instanceof AuthenticationError) {
		return new NodeApiError(node, response, {
			...options,
			message: `The ${keyKind} API key was rejected: check it in the credential, or generate a new one in the Multichannel console at ${consoleUrl}`,
			description: `The service answered 401: ${said}. A key may be mistyped, revoked or of another workspace; a new key's secret is shown only once.${reference}`,
			failure: { cause: 'credential-invalid' },
		});
	}

	if (error instanceof PermissionDeniedError) {
		const scope = context.scope ? ` the ${context.scope} scope` : ' the scope this operation needs';
		return new NodeApiError(node, response, {
			...options,
			message: `The API key is not allowed to do this: it lacks${scope}, or it is not ${withArticle(keyKind)} key`,
			description: `The service answered 403: ${said}. Keys are scoped, and short-link, automation and workspace keys each work only with their own node. Generate ${withArticle(keyKind)} key with${scope} in the Multichannel console at ${consoleUrl}.${reference}`,
			failure: { cause: 'credential-invalid' },
		});
	}

	if (error instanceof RateLimitError) {
		const waitMs = retryWait(error);
		const wait = waitMs === undefined ? 'a moment' : describeWait(waitMs);
		const failure: Failure = { cause: 'rate-limited' };
		if (error.retryAfterMs !== undefined) failure.retryAfterMs = error.retryAfterMs;
		if (error.rateLimit.reset !== undefined) failure.resetsAtEpochMs = error.rateLimit.reset * 1000;
		return new NodeApiError(node, response, {
			...options,
			message: `The Multichannel service is rate limiting this key: wait ${wait} before trying again`,
			description: `Still refused after the node's automatic retries (${said}). Send fewer items per run, or turn on "Retry On Fail" in the node settings with a wait of at least ${wait}.${reference}`,
			failure,
		});
	}

	if (error instanceof NotFoundError && error.status === 410) {
		return new NodeApiError(node, response, {
			...options,
			message: `The ${context.noun ?? 'resource'} is no longer available${item}: ${said}`,
			description: `The service answered 410: it existed, but the service no longer keeps it.${reference}`,
		});
	}

	if (error instanceof NotFoundError) {
		const what = context.noun ?? 'resource';
		return new NodeApiError(node, response, {
			...options,
			message: `The ${what} was not found${item}`,
			description: `The service answered ${error.status}: ${said}. Check the ID, or choose the ${what} from the list; it may have been deleted.${reference}`,
			failure: { cause: 'configuration-invalid' },
		});
	}

	if (error instanceof ServerError) {
		return new NodeApiError(node, response, {
			...options,
			message: `The Multichannel service failed to handle the request (HTTP ${error.status}): try again later`,
			description: `${said}.${details}${reference} If it keeps happening, give the request ID to the service's support.`,
			failure: { cause: 'temporarily-unavailable' },
		});
	}

	return new NodeApiError(node, response, {
		...options,
		message: `The Multichannel service refused the request${item}: ${said}`,
		description: `HTTP ${error.status} (${error.code}).${details}${reference}`,
	});
}

/**
 * What n8n shows under "Error details": the service's answer, never the request. Its `details` are copied
 * value by value, each string redacted, so that whatever a service put there stays readable and safe.
 */
function plain(error: MultichannelError, clean: Clean): JsonObject {
	const response: JsonObject = { message: cut(clean(error.message)), code: error.code };
	if (error.status !== undefined) response.httpCode = String(error.status);
	if (error.requestId) response.requestId = error.requestId;
	if (error instanceof ApiError && error.details.length > 0) {
		response.details = redactedCopy(error.details, clean);
	}
	return response;
}

/** `details` of a 4xx body, usually `{ field, message }` entries, as lines under the message. */
function formatDetails(details: unknown[], clean: Clean): string {
	const copy = redactedCopy(details, clean);
	if (!Array.isArray(copy) || copy.length === 0) return '';
	const lines = copy.map((detail) => {
		if (typeof detail === 'string') return detail;
		const { field, message } = (detail ?? {}) as { field?: unknown; message?: unknown };
		if (typeof message !== 'string') return cut(JSON.stringify(detail), 200);
		return typeof field === 'string' ? `${field}: ${message}` : message;
	});
	return ` Details: ${lines.join('; ')}.`;
}

/** How long the service asked us to wait: `Retry-After`, or else the reset of the rate-limit window. */
function retryWait(error: RateLimitError, now = Date.now()): number | undefined {
	if (error.retryAfterMs !== undefined) return error.retryAfterMs;
	if (error.rateLimit.reset !== undefined) return Math.max(0, error.rateLimit.reset * 1000 - now);
	return undefined;
}

function describeWait(ms: number): string {
	const seconds = Math.max(1, Math.ceil(ms / 1000));
	if (seconds < 120) return `${seconds} s`;
	return `${Math.ceil(seconds / 60)} min`;
}

/**
 * The JSON of the output item that replaces a failed one under "On Error: Continue": `error` is the message,
 * `details` what a later node may branch on. Only these two keys, so that n8n's "Continue (using error
 * output)" recognises the item as an error and routes it to the error output.
 */
export function errorJson(error: NodeError): JsonObject {
	const details: JsonObject = {};
	if (error.description) details.description = error.description;
	if (isNodeApiError(error) && error.httpCode) details.httpCode = error.httpCode;
	const { errorResponse } = error;
	if (errorResponse && typeof errorResponse.code === 'string') details.code = errorResponse.code;
	if (errorResponse && typeof errorResponse.requestId === 'string') {
		details.requestId = errorResponse.requestId;
	}
	if (error.context.itemIndex !== undefined) details.itemIndex = error.context.itemIndex as number;
	return { error: error.message, details };
}

/**
 * A field of the request as the user knows it. Entries of a list are numbered from 1 and named by the list's
 * `.*` name, fields inside them by their `.*.field` name: with `body.buttons.*` = "Button" and
 * `body.buttons.*.title` = "Title", `body.buttons.1.title` is "Button 2 › Title". Unnamed fields keep their
 * path.
 */
export function fieldLabel(field: string, names: Record<string, string> = {}): string {
	if (names[field]) return names[field];
	const labels: string[] = [];
	let pattern = '';
	let named = false;
	for (const part of field.split('.')) {
		const index = /^\d+$/.test(part) ? Number(part) : undefined;
		pattern = pattern === '' ? part : `${pattern}.${index === undefined ? part : '*'}`;
		const name = names[pattern];
		if (index !== undefined) {
			const list = labels.pop();
			labels.push(`${name ?? list ?? 'entry'} ${index + 1}`);
		} else if (name) {
			labels.push(name);
			named = true;
		} else if (named) labels.push(part);
	}
	return named ? labels.join(' › ') : field;
}
