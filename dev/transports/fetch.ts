import { ConnectionError, TimeoutError } from '../../src/client/errors';
import { defineTransport, type HttpRequest, type Transport } from '../../src/client/transport';

/**
 * A plain-Node transport on Node's built-in fetch, for the exact-exchange client tests: nock 14 intercepts
 * fetch, while it cannot see the undici package's own sockets (dev/transports/undici.ts, used against the
 * real sandbox). Like every transport outside n8n, it adds the Bearer header itself.
 */
export function fetchTransport(apiKey: string): Transport {
	return defineTransport(async (request) => {
		const response = await fetch(request.url, {
			method: request.method,
			headers: { ...request.headers, Authorization: `Bearer ${apiKey}` },
			body: request.body,
			signal: AbortSignal.timeout(request.timeoutMs),
		});
		return {
			status: response.status,
			headers: Object.fromEntries(response.headers.entries()),
			body: Buffer.from(await response.arrayBuffer()),
		};
	}, networkError);
}

function networkError(failure: unknown, { url, timeoutMs }: HttpRequest): unknown {
	const where = new URL(url).origin;
	if ((failure as Error).name === 'TimeoutError') {
		return new TimeoutError(`No answer from ${where} within ${timeoutMs} ms`);
	}
	const code = ((failure as { cause?: { code?: string } }).cause?.code ?? '') as string;
	if (code) return new ConnectionError(`Could not reach ${where} (${code})`);
	return failure;
}
