import type {
	ICredentialsDecrypted,
	IExecuteFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
	IWebhookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
} from 'n8n-workflow';

import { ConnectionError, TimeoutError } from './errors';
import { defineTransport, type HttpRequest, type Transport } from './transport';

export type N8nContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IHookFunctions
	| IWebhookFunctions;

const TIMEOUT_CODES = new Set(['ECONNABORTED', 'ETIMEDOUT', 'ESOCKETTIMEDOUT']);
const CONNECTION_CODES = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'EPIPE',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'UND_ERR_SOCKET',
]);

/** n8n wraps network failures (in `NodeApiError`, around axios' error): find the system error code. */
function errorCode(error: unknown): string | undefined {
	for (
		let current = error as { code?: unknown; cause?: unknown } | undefined, depth = 0;
		current && depth < 5;
		depth++
	) {
		if (typeof current.code === 'string' && /^E[A-Z_]+$|^UND_ERR/.test(current.code))
			return current.code;
		current = current.cause as typeof current;
	}
	return undefined;
}

/**
 * The transport nodes use: n8n's `httpRequestWithAuthentication`, so the credential's Bearer header, the
 * instance's proxy and TLS settings and n8n's request logging all apply. HTTP errors come back as answers
 * (`ignoreHttpStatusErrors`) and are mapped by the client, in one place. Without a credential type, n8n's plain
 * `httpRequest`: for requests that carry their own authentication (a signed claim, a signed file URL), so that
 * n8n reads no credential for them. A credential already read is handed over (`credentialsDecrypted`), so that
 * n8n does not read it again for every request: in a webhook call each read costs an expression isolate.
 */
export function n8nTransport(
	context: N8nContext,
	credentialType?: string,
	credentialsDecrypted?: ICredentialsDecrypted,
): Transport {
	return defineTransport(async (request) => {
		const options: IHttpRequestOptions = {
			method: request.method as IHttpRequestMethods,
			url: request.url,
			headers: request.headers,
			body: request.body,
			timeout: request.timeoutMs,
			// A file is read as bytes: text would break every byte that is not UTF-8.
			encoding: request.binary ? 'arraybuffer' : 'text',
			json: false,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
		};
		const response = (
			credentialType === undefined
				? await context.helpers.httpRequest(options)
				: await context.helpers.httpRequestWithAuthentication.call(
						context,
						credentialType,
						options,
						credentialsDecrypted ? { credentialsDecrypted } : undefined,
					)
		) as { statusCode: number; headers: Record<string, unknown>; body: unknown };
		return { status: response.statusCode, headers: response.headers, body: response.body };
	}, networkError);
}

/** A network failure becomes `TimeoutError` or `ConnectionError` (retryable); anything else is kept. */
function networkError(failure: unknown, { url, timeoutMs }: HttpRequest): unknown {
	const code = errorCode(failure);
	const where = new URL(url).origin;
	if (code && TIMEOUT_CODES.has(code))
		return new TimeoutError(`No answer from ${where} within ${timeoutMs} ms`, {
			origin: where,
			systemCode: code,
		});
	if (code && CONNECTION_CODES.has(code))
		return new ConnectionError(`Could not reach ${where} (${code})`, undefined, {
			origin: where,
			systemCode: code,
		});
	return failure;
}
