/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code runs in plain Node, never inside n8n */
import { createServer, type IncomingHttpHeaders } from 'node:http';

import { closeServer, listenOnLoopback } from '../../dev/loopback';

export type Step =
	| 'reset'
	| 'hang'
	| { status: number; body?: unknown; headers?: Record<string, string> };

export interface ScriptedServer {
	baseUrl: string;
	requests: Array<{ method: string; url: string; headers: IncomingHttpHeaders; body: string }>;
	close(): Promise<void>;
}

/**
 * A real loopback server that answers each request with the next step: a reply, a connection reset, or
 * nothing at all (so the client times out). For network failures that nock cannot fake through fetch.
 */
export async function startScriptedServer(steps: Step[]): Promise<ScriptedServer> {
	const requests: ScriptedServer['requests'] = [];
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			requests.push({
				method: req.method ?? '',
				url: req.url ?? '',
				headers: req.headers,
				body: Buffer.concat(chunks).toString(),
			});
			const step = steps.shift() ?? { status: 500 };
			if (step === 'reset') {
				req.socket.destroy();
			} else if (step !== 'hang') {
				res.writeHead(step.status, { 'Content-Type': 'application/json', ...step.headers });
				res.end(step.body === undefined ? '' : JSON.stringify(step.body));
			}
		});
	});
	return {
		baseUrl: await listenOnLoopback(server),
		requests,
		close: () => closeServer(server),
	};
}
