import type { ErrorBody } from './schemas';
import { redactSecrets } from './redact';

export interface RateLimitInfo {
	limit?: number;
	remaining?: number;
	/** Unix seconds at which the window resets. */
	reset?: number;
}

/** Base of every error the client throws. Messages are redacted: they never carry a key or a secret. */
export class MultichannelError extends Error {
	readonly status?: number;
	readonly code: string;
	readonly requestId?: string;

	constructor(message: string, options: { status?: number; code: string; requestId?: string }) {
		super(redactSecrets(message));
		this.name = new.target.name;
		this.status = options.status;
		this.code = options.code;
		this.requestId = options.requestId;
	}
}

export interface ValidationIssue {
	/** Dotted path of the field, e.g. `body.to` or `query.limit`. */
	field: string;
	message: string;
}

/** The request was refused by the client's own validation: nothing was sent. */
export class RequestValidationError extends MultichannelError {
	readonly issues: ValidationIssue[];

	constructor(issues: ValidationIssue[]) {
		super(issues.map((issue) => `${issue.field}: ${issue.message}`).join('; '), {
			code: 'invalid_request',
		});
		this.issues = issues;
	}
}

/** The service answered with an error status. */
export class ApiError extends MultichannelError {
	declare readonly status: number;
	readonly details: unknown[];
	readonly rateLimit: RateLimitInfo;

	constructor(
		message: string,
		options: {
			status: number;
			code: string;
			requestId?: string;
			details?: unknown[];
			rateLimit?: RateLimitInfo;
		},
	) {
		super(message, options);
		this.details = (options.details ?? []).map((detail) =>
			typeof detail === 'string' ? redactSecrets(detail) : detail,
		);
		this.rateLimit = options.rateLimit ?? {};
	}
}

export class BadRequestError extends ApiError {}
export class AuthenticationError extends ApiError {}
export class PermissionDeniedError extends ApiError {}
export class NotFoundError extends ApiError {}
export class ConflictError extends ApiError {}
export class RateLimitError extends ApiError {
	/** How long the service asked us to wait, when it said (Retry-After). */
	retryAfterMs?: number;
}
export class ServerError extends ApiError {}

/** Where a request without an answer went, and what the system said about it. */
export interface ConnectionFailure {
	/** The service's origin, e.g. `https://api.example.com` (never a path, a query or credentials). */
	origin?: string;
	/** The system's error code, e.g. `ECONNREFUSED`, `ENOTFOUND`. */
	systemCode?: string;
}

/** No answer: the connection failed or was reset. Nothing is known about whether the request took effect. */
export class ConnectionError extends MultichannelError {
	readonly origin?: string;
	readonly systemCode?: string;

	constructor(message: string, code = 'connection_error', failure: ConnectionFailure = {}) {
		super(message, { code });
		this.origin = failure.origin;
		this.systemCode = failure.systemCode;
	}
}

export class TimeoutError extends ConnectionError {
	constructor(message: string, failure: ConnectionFailure = {}) {
		super(message, 'timeout', failure);
	}
}

/** The service answered 2xx with a body we cannot use at all (not JSON, or missing an id we need). */
export class UnexpectedResponseError extends MultichannelError {}

const STATUS_CLASSES: Array<[(status: number) => boolean, typeof ApiError]> = [
	[(s) => s === 400 || s === 413 || s === 422, BadRequestError],
	[(s) => s === 401, AuthenticationError],
	[(s) => s === 403, PermissionDeniedError],
	[(s) => s === 404 || s === 410, NotFoundError],
	[(s) => s === 409, ConflictError],
	[(s) => s === 429, RateLimitError],
	[(s) => s >= 500, ServerError],
];

/** The one place where an error status and body become an error class. */
export function errorFromResponse(
	status: number,
	body: unknown,
	headers: Record<string, string | undefined>,
): ApiError {
	const error = (body as Partial<ErrorBody> | undefined)?.error;
	const payload = typeof error === 'object' && error !== null ? error : undefined;
	const message =
		typeof payload?.message === 'string'
			? payload.message
			: typeof body === 'string' && body.trim() !== '' && body.length < 500
				? body.trim()
				: `The service answered HTTP ${status}`;
	const ErrorClass = STATUS_CLASSES.find(([matches]) => matches(status))?.[1] ?? ApiError;
	const apiError = new ErrorClass(message, {
		status,
		code: typeof payload?.code === 'string' ? payload.code : `http_${status}`,
		requestId:
			(typeof payload?.requestId === 'string' ? payload.requestId : undefined) ??
			headers['x-request-id'],
		details: Array.isArray(payload?.details) ? payload.details : [],
		rateLimit: rateLimitFromHeaders(headers),
	});
	if (apiError instanceof RateLimitError)
		apiError.retryAfterMs = parseRetryAfter(headers['retry-after']);
	return apiError;
}

export function rateLimitFromHeaders(headers: Record<string, string | undefined>): RateLimitInfo {
	const number = (name: string) => {
		const value = Number(headers[name]);
		return headers[name] !== undefined && Number.isFinite(value) ? value : undefined;
	};
	return {
		limit: number('x-ratelimit-limit'),
		remaining: number('x-ratelimit-remaining'),
		reset: number('x-ratelimit-reset'),
	};
}

/** `Retry-After` is either delay-seconds or an HTTP date. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
	if (value === undefined || value.trim() === '') return undefined;
	if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.round(Number(value) * 1000);
	const date = Date.parse(value);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
