import { NodeApiError, type Failure, type JsonObject } from 'n8n-workflow';

import {
	ApiError,
	AuthenticationError,
	MultichannelError,
	NotFoundError,
	PermissionDeniedError,
	RateLimitError,
	ServerError,
	type KeyKind,
} from '../../src/client';
import type { ErrorContext, Mapping } from './error-context';
import { cut, redactedCopy, type Clean } from './redaction';
import { withArticle } from './words';

/**
 * Answers with an error status, as n8n shows them: a table of cases by the client's error class (itself from the
 * status, src/client/errors.ts), each saying what to do about it, and the service's answer under "Error details".
 */

/** The console page where keys are generated, on the service's host. */
const CONSOLE_PATH = '/user/api';

/** How messages name each kind of key: "the short-link API key". */
const KEY_KIND_WORDS: Record<KeyKind, string> = {
	workspace: 'workspace',
	shortLink: 'short-link',
	automation: 'automation',
};

/** What an answer with an error status is explained with, beside the service's own words (`said`). */
interface Answered {
	error: ApiError;
	context: ErrorContext;
	item: string;
	/** The kind of key as messages name it: "short-link". */
	keyKind: string;
	said: string;
	details: string;
	/** ` Request ID: …`, or nothing. */
	reference: string;
	/** The console of the credential's service: built from its base URL (a key never goes into a URL). */
	consoleUrl: string;
}

interface Explanation {
	message: string;
	description: string;
	failure?: Failure;
}

/** Answers with an error status, by the client's error class: the message says what to do about each. */
const STATUS_CASES: Array<[(error: ApiError) => boolean, (answered: Answered) => Explanation]> = [
	[
		(error) => error instanceof AuthenticationError,
		({ keyKind, said, reference, consoleUrl }) => ({
			message: `The ${keyKind} API key was rejected: check it in the credential, or generate a new one in the Multichannel console at ${consoleUrl}`,
			description: `The service answered 401: ${said}. A key may be mistyped, revoked or of another workspace; a new key's secret is shown only once.${reference}`,
			failure: { cause: 'credential-invalid' },
		}),
	],
	[
		(error) => error instanceof PermissionDeniedError,
		({ context, keyKind, said, reference, consoleUrl }) => {
			const scope = context.scope
				? ` the ${context.scope} scope`
				: ' the scope this operation needs';
			return {
				message: `The API key is not allowed to do this: it lacks${scope}, or it is not ${withArticle(keyKind)} key`,
				description: `The service answered 403: ${said}. Keys are scoped, and short-link, automation and workspace keys each work only with their own node. Generate ${withArticle(keyKind)} key with${scope} in the Multichannel console at ${consoleUrl}.${reference}`,
				failure: { cause: 'credential-invalid' },
			};
		},
	],
	[(error) => error instanceof RateLimitError, rateLimited],
	[
		(error) => error instanceof NotFoundError && error.status === 410,
		({ context, item, said, reference }) => ({
			message: `The ${context.noun ?? 'resource'} is no longer available${item}: ${said}`,
			description: `The service answered 410: it existed, but the service no longer keeps it.${reference}`,
		}),
	],
	[
		// A person named by contact ID, @username or …@lid that the instance does not know: nothing was sent.
		(error) => error instanceof NotFoundError && error.code === 'contact_not_found',
		({ item, said, reference }) => ({
			message: `No such contact on this instance${item}: ${said}`,
			description: `The service answered 404, and nothing was sent. A contact ID, @username or …@lid chat ID must be a contact of this instance (Contact → Get Many lists them; a person who hides their number becomes one when they first write); a phone number always works.${reference}`,
			failure: { cause: 'configuration-invalid' },
		}),
	],
	[
		(error) => error instanceof NotFoundError,
		({ error, context, item, said, reference }) => {
			const what = namedMissing(said) ?? context.noun ?? 'resource';
			return {
				message: `The ${what} was not found${item}`,
				description: `The service answered ${error.status}: ${said}. Check the ID, or choose the ${what} from the list; it may have been deleted.${reference}`,
				failure: { cause: 'configuration-invalid' },
			};
		},
	],
	[
		(error) => error instanceof ServerError,
		({ error, said, details, reference }) => ({
			message: `The Multichannel service failed to handle the request (HTTP ${error.status}): try again later`,
			description: `${said}.${details}${reference} If it keeps happening, give the request ID to the service's support.`,
			failure: { cause: 'temporarily-unavailable' },
		}),
	],
];

/**
 * What the service says it did not find (`Instance "inst_9" was not found…`): a send to an unknown instance is
 * the Message resource's call, but the instance is what is missing.
 */
function namedMissing(said: string): string | undefined {
	return /^([A-Za-z][A-Za-z ]*?) "[^"]*" was not found/.exec(said)?.[1].toLowerCase();
}

/** Any other status: the service's own words. */
function refused({ error, item, said, details, reference }: Answered): Explanation {
	return {
		message: `The Multichannel service refused the request${item}: ${said}`,
		description: `HTTP ${error.status} (${error.code}).${details}${reference}`,
	};
}

/** An answer with an error status, explained by the first status case that matches. */
export function apiError(error: ApiError, { node, context, clean, item }: Mapping): NodeApiError {
	const answered: Answered = {
		error,
		context,
		item,
		keyKind: KEY_KIND_WORDS[context.keyKind],
		said: withFieldNames(clean(error.message).replace(/\.+$/, ''), context.fields),
		details: formatDetails(error.details, clean, context.fields),
		reference: error.requestId ? ` Request ID: ${error.requestId}.` : '',
		consoleUrl: `${context.serviceUrl ?? ''}${CONSOLE_PATH}`,
	};
	const explain = STATUS_CASES.find(([matches]) => matches(error))?.[1] ?? refused;
	const { message, description, failure } = explain(answered);
	return new NodeApiError(node, plain(error, clean), {
		httpCode: String(error.status),
		itemIndex: context.itemIndex,
		message,
		description,
		...(failure ? { failure } : {}),
	});
}

/** 429 after the client's retries: how long to wait, and n8n's rate-limit failure with its timing. */
function rateLimited({ error, said, reference }: Answered): Explanation {
	const limited = error as RateLimitError;
	const waitMs = retryWait(limited);
	const wait = waitMs === undefined ? 'a moment' : describeWait(waitMs);
	const failure: Failure = { cause: 'rate-limited' };
	if (limited.retryAfterMs !== undefined) failure.retryAfterMs = limited.retryAfterMs;
	if (limited.rateLimit.reset !== undefined) {
		failure.resetsAtEpochMs = limited.rateLimit.reset * 1000;
	}
	return {
		message: `The Multichannel service is rate limiting this key: wait ${wait} before trying again`,
		description: `Still refused after the node's automatic retries (${said}). Send fewer items per run, or turn on "Retry On Fail" in the node settings with a wait of at least ${wait}.${reference}`,
		failure,
	};
}

/**
 * What n8n shows under "Error details": the service's answer, never the request. Its `details` are copied
 * value by value, each string redacted, so that whatever a service put there stays readable and safe.
 */
export function plain(error: MultichannelError, clean: Clean): JsonObject {
	const response: JsonObject = { message: cut(clean(error.message)), code: error.code };
	if (error.status !== undefined) response.httpCode = String(error.status);
	if (error.requestId) response.requestId = error.requestId;
	if (error instanceof ApiError && error.details.length > 0) {
		response.details = redactedCopy(error.details, clean);
	}
	return response;
}

/**
 * The service's words with the request fields the operation names (`body.sendAt`) by the names the user sees
 * ("Send At"), as its details are.
 */
function withFieldNames(said: string, names: Record<string, string> = {}): string {
	return Object.keys(names)
		.sort((a, b) => b.length - a.length)
		.reduce(
			(text, field) =>
				text.replace(
					new RegExp(`(?<![\\w.])${field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w.])`, 'g'),
					() => names[field],
				),
			said,
		);
}

/**
 * `details` of a 4xx body, usually `{ field, message }` entries, as lines under the message; a field the operation
 * names (its `fields`, e.g. `body.sendAt` = "Send At") by the name the user sees.
 */
function formatDetails(
	details: unknown[],
	clean: Clean,
	names: Record<string, string> = {},
): string {
	const copy = redactedCopy(details, clean);
	if (!Array.isArray(copy) || copy.length === 0) return '';
	const lines = copy.map((detail) => {
		if (typeof detail === 'string') return detail;
		const { field, message } = (detail ?? {}) as { field?: unknown; message?: unknown };
		if (typeof message !== 'string') return cut(JSON.stringify(detail), 200);
		return typeof field === 'string' ? `${names[field] ?? field}: ${message}` : message;
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
