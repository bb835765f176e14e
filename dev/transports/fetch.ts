import { ConnectionError, TimeoutError } from '../../src/client/errors';
import { normaliseHeaders, responseBody, type Transport } from '../../src/client/transport';

/**
 * A plain-Node transport on Node's built-in fetch, for the exact-exchange client tests: nock 14 intercepts
 * fetch, while it cannot see the undici package's own sockets (dev/transports/undici.ts, used against the
 * real sandbox). Like every transport outside n8n, it adds the Bearer header itself.
 */
export function fetchTransport(apiKey: string): Transport {
	return {
		async send(request) {
			let result: { status: number; headers: Record<string, string>; body: Buffer } | undefined;
			let failure: unknown;
			try {
				const response = await fetch(request.url, {
					method: request.method,
					headers: { ...request.headers, Authorization: `Bearer ${apiKey}` },
					body: request.body,
					signal: AbortSignal.timeout(request.timeoutMs),
				});
				result = {
					status: response.status,
					headers: Object.fromEntries(response.headers.entries()),
					body: Buffer.from(await response.arrayBuffer()),
				};
			} catch (error) {
				failure = error;
			}
			if (result)
				return {
					status: result.status,
					headers: normaliseHeaders(result.headers),
					body: responseBody(result.body, result.status, request.binary),
				};
			const where = new URL(request.url).origin;
			if ((failure as Error).name === 'TimeoutError') {
				throw new TimeoutError(`No answer from ${where} within ${request.timeoutMs} ms`);
			}
			const code = ((failure as { cause?: { code?: string } }).cause?.code ?? '') as string;
			if (code) throw new ConnectionError(`Could not reach ${where} (${code})`);
			throw failure;
		},
	};
}
