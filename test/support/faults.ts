/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code runs in plain Node, never inside n8n (HTTP proxies, timers) */
/**
 * What the fault tests share:
 *
 * - `useTestRetries`: the client options of every node run, set through `connectionDefaults` (the seam in
 *   nodes/shared/connections.ts): shorter waits, more retries, and every retry recorded in `retries`.
 * - `startLossyProxy`: sits between the node and the sandbox and, for a share of requests, lets the sandbox
 *   process the request and then closes the connection instead of passing the answer on: the message was
 *   sent, the client does not know it and sends again. The sandbox's own `dropped` fault happens before a
 *   request is processed, so only this proxy makes a missing idempotency key visible as a duplicate.
 * - `startGateway`: a reverse proxy in front of a webhook receiver (n8n's webhook endpoint, say) that can be
 *   taken down in three ways: not listening (connection refused), answering 503 without passing the request
 *   on, or passing it on and holding the answer past the sender's timeout (the receiver did the work, the
 *   sender does not know it and delivers again).
 * - `publishEvents` / `emittedIdsOf`: many automation events, and the ids of the events they emitted.
 */
import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';

import type { Sandbox } from '../../sandbox/server';
import { closeServer, listenOnLoopback } from '../../dev/loopback';
import type { AutomationClient, ClientOptions, RetryInfo } from '../../src/client';
import { connectionDefaults } from '../../dev/harness';

// ---------------------------------------------------------------------------------------------------------
// Client options for node runs

/** Every retry a node's client made since the last `retries.length = 0`, with its reason. */
export const retries: RetryInfo[] = [];

/** Retry options a test can afford, plus a divisor applied to every wait (backoff or `Retry-After`). */
export type TestRetryOptions = Pick<ClientOptions, 'retryBaseDelayMs' | 'maxRetries'> & {
	/** 1 (the default) keeps the waits as they are. */
	waitDivisor?: number;
};

/** Sets the client options of every node run until the function it returns is called. */
export function useTestRetries({ waitDivisor = 1, ...options }: TestRetryOptions): () => void {
	Object.assign(connectionDefaults, {
		...options,
		sleep: async (ms: number) =>
			await new Promise<void>((resolve) => setTimeout(resolve, Math.round(ms / waitDivisor))),
		onRetry: (info: RetryInfo) => retries.push(info),
	} satisfies Partial<ClientOptions>);
	return () => {
		for (const key of Object.keys(connectionDefaults) as Array<keyof ClientOptions>) {
			delete connectionDefaults[key];
		}
	};
}

/** How many retries had each reason: `HTTP 429`, `HTTP 503`, `ECONNRESET`… */
export function retryReasons(): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const { reason } of retries) counts[reason] = (counts[reason] ?? 0) + 1;
	return counts;
}

// ---------------------------------------------------------------------------------------------------------
// Proxies

/** A local HTTP server that reads each request's whole body before handing it to `handle`. */
function proxyServer(handle: (req: IncomingMessage, body: Buffer, res: ServerResponse) => void) {
	return createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => handle(req, Buffer.concat(chunks), res));
	});
}

/**
 * Sends a request on to `upstream` and hands over its whole answer. An upstream that drops the connection
 * (the sandbox's own fault) is passed on as a dropped connection.
 */
function forward(
	upstream: URL,
	agent: Agent,
	req: IncomingMessage,
	body: Buffer,
	onAnswer: (answer: IncomingMessage, answerBody: Buffer) => void,
) {
	const outgoing = request(
		{
			host: upstream.hostname,
			port: upstream.port,
			method: req.method,
			path: req.url,
			headers: { ...req.headers, host: upstream.host },
			agent,
		},
		(answer) => {
			const chunks: Buffer[] = [];
			answer.on('data', (chunk: Buffer) => chunks.push(chunk));
			answer.on('end', () => onAnswer(answer, Buffer.concat(chunks)));
		},
	);
	outgoing.on('error', () => req.socket.destroy());
	outgoing.end(body);
}

function passOn(res: ServerResponse, answer: IncomingMessage, answerBody: Buffer) {
	if (res.destroyed) return;
	res.writeHead(answer.statusCode ?? 502, answer.headers);
	res.end(answerBody);
}

export interface LossyProxy {
	url: string;
	/** Requests passed on to the sandbox. */
	forwarded: number;
	/** Answers the client never got (any status). */
	lostAnswers: number;
	/** Of those, successes: the sandbox did the work and the client does not know it. */
	lostSuccesses: number;
	/** Answers passed on that the sandbox marked `Idempotency-Replayed`. */
	replayed: number;
	/** Share (0..1) of answers to lose; may be changed between runs. */
	loseShare: number;
	close(): Promise<void>;
}

/**
 * Forwards every request to `target`; for `loseShare` of the requests matching `applies` it waits for the
 * whole answer (the sandbox has done the work by then) and destroys the client's connection instead of
 * answering.
 */
export async function startLossyProxy(
	target: string,
	options: {
		loseShare: number;
		applies?: (req: IncomingMessage) => boolean;
		random?: () => number;
	},
): Promise<LossyProxy> {
	const upstream = new URL(target);
	const agent = new Agent({ keepAlive: true, maxSockets: 64 });
	const random = options.random ?? Math.random;
	const applies = options.applies ?? (() => true);

	const server = proxyServer((req, body, res) => {
		const lose = applies(req) && random() < proxy.loseShare;
		proxy.forwarded++;
		forward(upstream, agent, req, body, (answer, answerBody) => {
			if (answer.headers['idempotency-replayed'] === 'true') proxy.replayed++;
			if (!lose) return passOn(res, answer, answerBody);
			proxy.lostAnswers++;
			const status = answer.statusCode ?? 0;
			if (status >= 200 && status < 300) proxy.lostSuccesses++;
			req.socket.destroy();
		});
	});
	const proxy: LossyProxy = {
		url: await listenOnLoopback(server),
		forwarded: 0,
		lostAnswers: 0,
		lostSuccesses: 0,
		replayed: 0,
		loseShare: options.loseShare,
		close: async () => {
			await closeServer(server);
			agent.destroy();
		},
	};
	return proxy;
}

/**
 * What a gateway does with each request: `pass` it on; `refuse` (not listening: connection refused);
 * answer 503 without passing it on (`unavailable`); or pass it on and `hang`: hold the answer for `holdMs`,
 * past the sender's timeout, so that the receiver has done the work and the sender delivers again.
 */
export type GatewayMode = 'pass' | 'refuse' | 'unavailable' | 'hang';

export interface Gateway {
	/** Stays the same across modes: the port is listened on again after `refuse`. */
	url: string;
	readonly mode: GatewayMode;
	setMode(mode: GatewayMode): Promise<void>;
	close(): Promise<void>;
}

export async function startGateway(target: string, options: { holdMs?: number } = {}) {
	const upstream = new URL(target);
	const agent = new Agent({ keepAlive: true, maxSockets: 64 });
	const holdMs = options.holdMs ?? 2000;
	let mode: GatewayMode = 'pass';

	const server = proxyServer((req, body, res) => {
		if (mode === 'unavailable') {
			res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
			res.end(JSON.stringify({ message: 'Service unavailable' }));
			return;
		}
		const hold = mode === 'hang';
		forward(upstream, agent, req, body, (answer, answerBody) => {
			if (!hold) return passOn(res, answer, answerBody);
			const timer = setTimeout(() => passOn(res, answer, answerBody), holdMs);
			res.on('close', () => clearTimeout(timer));
		});
	});
	const port = Number(new URL(await listenOnLoopback(server)).port);

	const gateway: Gateway = {
		url: `http://127.0.0.1:${port}`,
		get mode() {
			return mode;
		},
		async setMode(next) {
			if (next === mode) return;
			if (next === 'refuse') await closeServer(server);
			else if (mode === 'refuse') await listenOnLoopback(server, port);
			mode = next;
		},
		async close() {
			if (mode !== 'refuse') await closeServer(server);
			mode = 'refuse';
			agent.destroy();
		},
	};
	return gateway;
}

// ---------------------------------------------------------------------------------------------------------
// Events

/** Publishes `count` automation events named `<label>.<n>`, ten at a time; their ids in order. */
export async function publishEvents(
	client: AutomationClient,
	label: string,
	count: number,
): Promise<string[]> {
	const ids: string[] = [];
	for (let start = 0; start < count; start += 10) {
		const batch = await Promise.all(
			Array.from({ length: Math.min(10, count - start) }, (_, offset) =>
				client.events.publish({
					body: { name: `${label}.${start + offset}`, payload: { n: start + offset } },
				}),
			),
		);
		ids.push(...batch.map((event) => event.id));
	}
	return ids;
}

/** The ids of the `automation.<name>` events the sandbox emitted for these published events. */
export function emittedIdsOf(sandbox: Sandbox, publishedIds: string[]): string[] {
	const wanted = new Set(publishedIds);
	return sandbox.events
		.filter((event) => wanted.has((event.data as { id?: string }).id ?? ''))
		.map((event) => event.id);
}

// ---------------------------------------------------------------------------------------------------------

/** A small seeded PRNG (mulberry32), so that a failing run can be repeated with its seed. */
export function seededRandom(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}
