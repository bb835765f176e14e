import { errors, request as undiciRequest, type Dispatcher } from 'undici';

import { ConnectionError, TimeoutError } from '../../src/client/errors';
import { defineTransport, type HttpRequest, type Transport } from '../../src/client/transport';

/**
 * The transport for plain Node use: the sandbox's tools, tests and benchmarks. It adds the Bearer header
 * itself (inside n8n the credential does that).
 */
export function undiciTransport(apiKey: string, dispatcher?: Dispatcher): Transport {
	return defineTransport(async (request) => {
		const response = await undiciRequest(request.url, {
			method: request.method as Dispatcher.HttpMethod,
			headers: { ...request.headers, Authorization: `Bearer ${apiKey}` },
			body: request.body,
			headersTimeout: request.timeoutMs,
			bodyTimeout: request.timeoutMs,
			dispatcher,
		});
		return {
			status: response.statusCode,
			headers: response.headers,
			body: Buffer.from(await response.body.arrayBuffer()),
		};
	}, networkError);
}

function networkError(failure: unknown, { url, timeoutMs }: HttpRequest): unknown {
	const where = new URL(url).origin;
	if (failure instanceof errors.HeadersTimeoutError || failure instanceof errors.BodyTimeoutError) {
		return new TimeoutError(`No answer from ${where} within ${timeoutMs} ms`);
	}
	const code = (failure as { code?: string }).code ?? '';
	if (failure instanceof errors.SocketError || /^E[A-Z]+$/.test(code)) {
		return new ConnectionError(`Could not reach ${where} (${code || 'socket error'})`);
	}
	return failure;
}
