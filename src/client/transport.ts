/**
 * How the client reaches the service. Inside n8n this is `httpRequestWithAuthentication` (see
 * `n8n-transport.ts`), which adds the credential's Bearer header; outside n8n (sandbox tools, tests,
 * benchmarks) it is `dev/transports/undici.ts`. The client never sees the API key.
 */
export interface HttpRequest {
	method: string;
	/** Absolute URL, query string included. */
	url: string;
	headers: Record<string, string>;
	body?: string | Buffer;
	timeoutMs: number;
	/** The answer is a file: a 2xx body is handed over as the exact bytes (a Buffer), never parsed. */
	binary?: boolean;
}

export interface HttpResponse {
	status: number;
	/** Lower-case header names. */
	headers: Record<string, string | undefined>;
	/**
	 * Parsed JSON when the body was JSON, the text otherwise, undefined when empty; the bytes (a Buffer) of a
	 * 2xx answer to a `binary` request.
	 */
	body: unknown;
}

/**
 * Answers every HTTP status (it does not throw on 4xx/5xx); throws `ConnectionError` or `TimeoutError`
 * when no answer came.
 */
export interface Transport {
	send(request: HttpRequest): Promise<HttpResponse>;
}

/** An answer as a transport's library gives it: any header shape, the body as it came. */
export interface RawResponse {
	status: number;
	headers: Record<string, unknown> | undefined;
	body: unknown;
}

/**
 * A transport from its two library-specific parts: one exchange, and what a failure with no answer is
 * (`TimeoutError`, `ConnectionError` or the failure itself). Headers and body are normalised here, the same
 * for every transport.
 */
export function defineTransport(
	exchange: (request: HttpRequest) => Promise<RawResponse>,
	networkError: (failure: unknown, request: HttpRequest) => unknown,
): Transport {
	return {
		async send(request) {
			let response: RawResponse;
			try {
				response = await exchange(request);
			} catch (failure) {
				throw networkError(failure, request);
			}
			return {
				status: response.status,
				headers: normaliseHeaders(response.headers),
				body: responseBody(response.body, response.status, request.binary),
			};
		},
	};
}

/** Lower-cases header names and joins repeated values, whatever shape a transport got them in. */
export function normaliseHeaders(
	raw: Record<string, unknown> | undefined,
): Record<string, string | undefined> {
	const headers: Record<string, string | undefined> = {};
	for (const [name, value] of Object.entries(raw ?? {})) {
		if (value === undefined || value === null) continue;
		headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
	}
	return headers;
}

/** A body as the client wants it: the bytes of a file (a 2xx answer to a `binary` request), else `parseBody`. */
export function responseBody(raw: unknown, status: number, binary: boolean | undefined): unknown {
	if (binary && status >= 200 && status < 300) {
		if (Buffer.isBuffer(raw)) return raw;
		if (raw instanceof ArrayBuffer || raw instanceof Uint8Array)
			return Buffer.from(raw as Uint8Array);
		return Buffer.from(typeof raw === 'string' ? raw : '', 'utf8');
	}
	return parseBody(raw);
}

/** Parses a response body as JSON when it looks like JSON; keeps the text otherwise. */
export function parseBody(raw: unknown): unknown {
	if (Buffer.isBuffer(raw)) raw = raw.toString('utf8');
	if (typeof raw !== 'string') return raw;
	if (raw === '') return undefined;
	try {
		return JSON.parse(raw);
	} catch {
		return raw;
	}
}
