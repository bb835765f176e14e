import { sleep as n8nSleep } from 'n8n-workflow';
import type { z } from 'zod/v4';

import {
	ConnectionError,
	errorFromResponse,
	MultichannelError,
	rateLimitFromHeaders,
	RateLimitError,
	type RateLimitInfo,
	TimeoutError,
	UnexpectedResponseError,
} from './errors';
import { fileFromResponse, type DownloadedFile } from './download';
import type { UploadFile } from './multipart';
import type { Operation } from './operation';
import { buildRequest } from './request';
import type { HttpRequest, HttpResponse, Transport } from './transport';

export interface ClientOptions {
	/** The user's base URL; a trailing slash or a trailing `/api/v1` is tolerated. */
	baseUrl: string;
	/** Retries after the first attempt, for 429, 502, 503, 504, connection resets and timeouts. */
	maxRetries?: number;
	/** First backoff step; doubles with each retry, with jitter. */
	retryBaseDelayMs?: number;
	/** Longest single wait; a `Retry-After` longer than this is not waited for but reported. */
	maxRetryDelayMs?: number;
	timeoutMs?: number;
	/** Injected in tests; defaults to n8n's `sleep` (timers are off limits in community nodes). */
	sleep?: (ms: number) => Promise<void>;
	random?: () => number;
	/** The clock `CallOptions.deadline` is read against; injected in tests. Defaults to `Date.now`. */
	now?: () => number;
	onRetry?: (info: RetryInfo) => void;
}

export interface RetryInfo {
	operation: string;
	attempt: number;
	delayMs: number;
	reason: string;
}

export interface CallOptions {
	/**
	 * For creating writes. Omitted: the client makes one per call (the same across its retries).
	 * `null`: send none, and so never retry the call.
	 */
	idempotencyKey?: string | null;
	/**
	 * For operations authenticated by a webhook's secret instead of a key (`signed: 'webhookSecret'`): the
	 * secret the request is signed with (`X-Multichannel-Signature` over the body).
	 */
	signingSecret?: string;
	timeoutMs?: number;
	maxRetries?: number;
	/**
	 * When the call must be over, retries and waits included (milliseconds since the epoch, as `Date.now()`):
	 * each attempt's timeout is cut to the time left, and a retry whose wait (a backoff or a `Retry-After`)
	 * would end past it is not waited for: the last error is thrown instead, and a call started past it is
	 * not sent (`TimeoutError`). For work that must answer someone in time, such as a webhook delivery.
	 */
	deadline?: number;
}

type AnyInput = Record<string, unknown>;

type ParamsInput<O> = O extends { params: infer P extends z.ZodType } ? z.input<P> : unknown;
type QueryInput<O> = O extends { query: infer Q extends z.ZodType }
	? { query?: z.input<Q> }
	: unknown;
type BodyInput<O> = O extends { body: infer B extends z.ZodType }
	? object extends z.input<B>
		? { body?: z.input<B> }
		: { body: z.input<B> }
	: unknown;
type UploadInput<O> = O extends { upload: true } ? { file: UploadFile } : unknown;

/** What a method takes: path parameters at the top level, plus `query`, `body` and `file` where used. */
export type OperationInput<O> = ParamsInput<O> & QueryInput<O> & BodyInput<O> & UploadInput<O>;
export type OperationOutput<O> = O extends { binary: true }
	? DownloadedFile
	: O extends { response: infer R extends z.ZodType }
		? z.output<R>
		: void;
export type PageItem<O> = OperationOutput<O> extends { data: Array<infer T> } ? T : never;

/** The input may be left out where the operation needs nothing (`client.models.list()`). */
type Args<O, Options> =
	object extends OperationInput<O>
		? [input?: OperationInput<O>, options?: Options]
		: [input: OperationInput<O>, options?: Options];

type Call<O> = (...args: Args<O, CallOptions>) => Promise<OperationOutput<O>>;

export interface Paging<O> {
	/** Every page in turn, following `nextCursor`. */
	pages(...args: Args<O, CallOptions>): AsyncGenerator<OperationOutput<O>>;
	/** The items of every page, stopping once `max` items are collected. */
	all(...args: Args<O, CallOptions & { max?: number }>): Promise<Array<PageItem<O>>>;
}

export type Method<O> = Call<O> & (O extends { paginated: true } ? Paging<O> : unknown);
export type Resources = Record<string, Record<string, Operation>>;
export type Client<S extends Resources> = {
	[R in keyof S]: { [K in keyof S[R]]: Method<S[R][K]> };
} & {
	/** Rate-limit headers of the latest answer, to pace bulk work. */
	readonly rateLimit: RateLimitInfo;
	/** The service's clock: its `Date` header on the latest answer (ms since the epoch); undefined before one. */
	readonly serverTime: number | undefined;
};

const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);
const MAX_PAGE_SIZE = 100;

/** What one attempt came to: an answer of any status, or what the transport threw. */
type Outcome = { response: HttpResponse } | { failure: unknown };

function isSuccess(response: HttpResponse): boolean {
	return response.status >= 200 && response.status < 300;
}

export function normaliseBaseUrl(baseUrl: string): string {
	const trimmed = (baseUrl ?? '')
		.trim()
		.replace(/\/+$/, '')
		.replace(/\/api\/v1$/i, '');
	if (!/^https?:\/\/[^/\s]+/i.test(trimmed)) {
		throw new MultichannelError(`The base URL "${trimmed}" is not an http(s) URL`, {
			code: 'invalid_base_url',
		});
	}
	return trimmed;
}

/**
 * Sends operations of the contract: builds the request (`request.ts`), sends it, retries what may be
 * retried, maps errors and parses the answer.
 */
export class HttpClient {
	readonly baseUrl: string;
	rateLimit: RateLimitInfo = {};
	serverTime: number | undefined;
	private readonly maxRetries: number;
	private readonly retryBaseDelayMs: number;
	private readonly maxRetryDelayMs: number;
	private readonly timeoutMs: number;
	private readonly sleep: (ms: number) => Promise<void>;
	private readonly random: () => number;
	private readonly now: () => number;

	constructor(
		private readonly transport: Transport,
		private readonly options: ClientOptions,
	) {
		this.baseUrl = normaliseBaseUrl(options.baseUrl);
		this.maxRetries = options.maxRetries ?? 3;
		this.retryBaseDelayMs = options.retryBaseDelayMs ?? 500;
		this.maxRetryDelayMs = options.maxRetryDelayMs ?? 60_000;
		this.timeoutMs = options.timeoutMs ?? 30_000;
		this.sleep = options.sleep ?? n8nSleep;
		this.random = options.random ?? Math.random;
		this.now = options.now ?? Date.now;
	}

	async call<O extends Operation>(
		operation: O,
		input: OperationInput<O> | undefined,
		options: CallOptions = {},
	): Promise<OperationOutput<O>> {
		const request = buildRequest(operation, input, {
			baseUrl: this.baseUrl,
			idempotencyKey: options.idempotencyKey,
			signingSecret: options.signingSecret,
			timeoutMs: options.timeoutMs ?? this.timeoutMs,
		});
		// A creating write without an idempotency key is never resent: it could create twice.
		const maxRetries =
			operation.creates && !request.headers['Idempotency-Key']
				? 0
				: (options.maxRetries ?? this.maxRetries);
		const name = `${operation.method} ${operation.path}`;

		for (let attempt = 0; ; attempt++) {
			const outcome = await this.send(this.withinDeadline(request, options.deadline));
			if ('response' in outcome && isSuccess(outcome.response)) {
				return this.parseResponse(operation, outcome.response);
			}
			const retry = this.retryAfterFailure(outcome, attempt, maxRetries);
			if (options.deadline !== undefined && this.now() + retry.delayMs >= options.deadline) {
				throw retry.error;
			}
			await this.wait(name, attempt, retry.delayMs, retry.reason);
		}
	}

	/** The request with its timeout cut to the time left before the deadline; throws when none is left. */
	private withinDeadline(request: HttpRequest, deadline: number | undefined): HttpRequest {
		if (deadline === undefined) return request;
		const left = Math.floor(deadline - this.now());
		const origin = new URL(request.url).origin;
		if (left <= 0) {
			throw new TimeoutError(`No time was left to call ${origin} before the deadline`, { origin });
		}
		return left < request.timeoutMs ? { ...request, timeoutMs: left } : request;
	}

	/** One attempt: the answer (any status), or what the transport threw when none came. */
	private async send(request: HttpRequest): Promise<Outcome> {
		try {
			const response = await this.transport.send(request);
			this.rateLimit = rateLimitFromHeaders(response.headers);
			const date = Date.parse(response.headers.date ?? '');
			if (Number.isFinite(date)) this.serverTime = date;
			return { response };
		} catch (failure) {
			return { failure };
		}
	}

	/**
	 * Whether a failed attempt is tried again, and after how long: throws the error when it is not (a status
	 * or failure that is not retryable, retries used up, or a `Retry-After` longer than the longest wait).
	 * The error comes with the wait, for a caller that cannot wait that long.
	 */
	private retryAfterFailure(
		outcome: Outcome,
		attempt: number,
		maxRetries: number,
	): { delayMs: number; reason: string; error: unknown } {
		if (!('response' in outcome)) {
			const { failure } = outcome;
			if (!(failure instanceof ConnectionError) || attempt >= maxRetries) throw failure;
			return { delayMs: this.backoff(attempt), reason: failure.code, error: failure };
		}
		const { status, body, headers } = outcome.response;
		const error = errorFromResponse(status, body, headers);
		if (!RETRYABLE_STATUS.has(status) || attempt >= maxRetries) throw error;
		const retryAfter = error instanceof RateLimitError ? error.retryAfterMs : undefined;
		if (retryAfter !== undefined && retryAfter > this.maxRetryDelayMs) throw error;
		return {
			delayMs: retryAfter ?? this.backoff(attempt),
			reason: `HTTP ${status}`,
			error,
		};
	}

	/** Exponential backoff with "equal jitter": half fixed, half random, capped. */
	private backoff(attempt: number): number {
		const step = Math.min(this.maxRetryDelayMs, this.retryBaseDelayMs * 2 ** attempt);
		return Math.round(step / 2 + (step / 2) * this.random());
	}

	private async wait(operation: string, attempt: number, delayMs: number, reason: string) {
		this.options.onRetry?.({ operation, attempt: attempt + 1, delayMs, reason });
		await this.sleep(delayMs);
	}

	private parseResponse<O extends Operation>(
		operation: O,
		response: HttpResponse,
	): OperationOutput<O> {
		if (operation.binary) return fileFromResponse(response) as OperationOutput<O>;
		if (!operation.response || response.status === 204) return undefined as OperationOutput<O>;
		const result = operation.response.safeParse(response.body);
		if (result.success) return result.data as OperationOutput<O>;
		const issue = result.error.issues[0];
		throw new UnexpectedResponseError(
			`The service's answer to ${operation.method} ${operation.path} could not be read: ` +
				`${issue?.path.join('.') || 'body'} ${issue?.message ?? ''}`.trim(),
			{ status: response.status, code: 'unexpected_response' },
		);
	}

	async *pages<O extends Operation>(
		operation: O,
		input: OperationInput<O> | undefined,
		options: CallOptions = {},
	): AsyncGenerator<OperationOutput<O>> {
		const base = (input ?? {}) as AnyInput;
		const seen = new Set<string>();
		let cursor: string | undefined;
		do {
			const query = { ...(base.query as AnyInput | undefined), ...(cursor ? { cursor } : {}) };
			const page = (await this.call(
				operation,
				{ ...base, query } as OperationInput<O>,
				options,
			)) as {
				nextCursor?: string | null;
			};
			yield page as OperationOutput<O>;
			cursor = page.nextCursor ?? undefined;
			if (cursor !== undefined && seen.has(cursor)) {
				throw new UnexpectedResponseError(`The service repeated the page cursor "${cursor}"`, {
					code: 'unexpected_response',
				});
			}
			if (cursor !== undefined) seen.add(cursor);
		} while (cursor);
	}

	async all<O extends Operation>(
		operation: O,
		input: OperationInput<O> | undefined,
		options: CallOptions & { max?: number } = {},
	): Promise<Array<PageItem<O>>> {
		const { max = Infinity, ...callOptions } = options;
		const base = (input ?? {}) as AnyInput;
		const query = base.query as AnyInput | undefined;
		const limit = query?.limit ?? Math.max(1, Math.min(MAX_PAGE_SIZE, max));
		const items: Array<PageItem<O>> = [];
		if (max <= 0) return items;
		for await (const page of this.pages(
			operation,
			{ ...base, query: { ...query, limit } } as OperationInput<O>,
			callOptions,
		)) {
			for (const item of (page as { data: Array<PageItem<O>> }).data) {
				items.push(item);
				if (items.length >= max) return items;
			}
		}
		return items;
	}
}

/** Turns one surface of the contract (`api.workspace`, …) into typed methods on a shared `HttpClient`. */
export function createClient<S extends Resources>(
	resources: S,
	transport: Transport,
	options: ClientOptions,
): Client<S> {
	const http = new HttpClient(transport, options);
	const client: Record<string, unknown> = {};
	for (const [resourceName, operations] of Object.entries(resources)) {
		const methods: Record<string, unknown> = {};
		for (const [methodName, operation] of Object.entries(operations)) {
			const method = (input?: AnyInput, callOptions?: CallOptions) =>
				http.call(operation, input as never, callOptions);
			if (operation.paginated) {
				Object.assign(method, {
					pages: (input?: AnyInput, callOptions?: CallOptions) =>
						http.pages(operation, input as never, callOptions),
					all: (input?: AnyInput, callOptions?: CallOptions & { max?: number }) =>
						http.all(operation, input as never, callOptions),
				});
			}
			methods[methodName] = method;
		}
		client[resourceName] = methods;
	}
	Object.defineProperty(client, 'rateLimit', { get: () => http.rateLimit, enumerable: false });
	Object.defineProperty(client, 'serverTime', { get: () => http.serverTime, enumerable: false });
	return client as Client<S>;
}
