/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- tests run in plain Node, never inside n8n */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { readFile } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createConnection, type Socket } from 'node:net';

import { keepIdleConnections } from '../../sandbox/http/keep-alive';
import { closeServer, listenOnLoopback } from '../../dev/loopback';
import { clientsFor, directUrl, sleep, suiteSandbox } from '../support/sandbox';

/**
 * A kept-alive connection is not closed under a client that honours the idle time the sandbox announces, even
 * when the client's event loop stalls (docs/design.md, "Kept-alive connections and a stalled event loop").
 */

/** Blocks this thread for `ms`, as a loaded machine or a long garbage collection stalls a process. */
const stall = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

describe('the sandbox and the typed client of the tests (undici)', () => {
	const suite = suiteSandbox();

	test('a request written after a stall past the announced idle time is answered on the same connection', async () => {
		// The typed client of the test files (clientsFor: undici's global dispatcher, no retries), at the sandbox
		// itself rather than the contract proxy's front (which keeps no connection alive).
		const { workspace } = clientsFor(directUrl(suite.sandbox), suite.keys);
		let connections = 0;
		const connected = () => connections++;
		subscribe('undici:client:connected', connected);
		try {
			await workspace.instances.list({ query: { limit: 1 } });
			const idleSince = Date.now();
			expect(connections).toBe(1);

			// In an I/O callback, as a node's answer arrives in the interactive tests: the stall ends there, and the
			// client writes its request before this turn's timers (its own 3 s idle timer, the server's close) run.
			const second = await new Promise<unknown>((resolve, reject) =>
				readFile(__filename, () => {
					stall(idleSince + 6_500 - Date.now());
					workspace.instances.list({ query: { limit: 1 } }).then(resolve, reject);
				}),
			);

			// Before the sandbox kept idle connections past Node's own close (6 s): ConnectionError, ECONNRESET.
			expect(second).toMatchObject({ data: expect.any(Array) });
			expect(connections).toBe(1);
		} finally {
			unsubscribe('undici:client:connected', connected);
		}
	});
});

describe('keepIdleConnections', () => {
	let server: Server;
	let url: URL;
	beforeAll(async () => {
		server = createServer((_req, res) => res.end('ok'));
		// Announced: 0.2 s (Node writes timeout=0). Node by itself would close the connection 1.2 s after each
		// answer (Node 20.20; 0.2 s before); it is kept 2.5 s.
		keepIdleConnections(server, { announcedMs: 200, keptMs: 2_500 });
		url = new URL(await listenOnLoopback(server));
	});
	afterAll(() => closeServer(server));

	test('keeps an idle connection past Node’s own close, afresh after each request, then closes it', async () => {
		const connection = await openConnection(url);
		expect(await connection.get()).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*Keep-Alive: timeout=0\r\n/);
		for (const round of [1, 2]) {
			await sleep(1_500);
			expect({ round, closed: connection.closedAt }).toEqual({ round, closed: undefined });
			expect(await connection.get()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
		}
		const lastAnswer = Date.now();
		const closedAt = await connection.closed;
		expect(closedAt - lastAnswer).toBeGreaterThanOrEqual(2_400);
		expect(closedAt - lastAnswer).toBeLessThan(10_000);
	});

	test('a request that asks for Connection: close is answered so and closed, as Node does', async () => {
		const connection = await openConnection(url);
		const answer = await connection.get({ Connection: 'close' });
		expect(answer).toMatch(/\r\nConnection: close\r\n/);
		expect(answer).not.toMatch(/Keep-Alive/i);
		await connection.closed;
	});
});

/** A raw TCP connection to `url`, sending GET / and reading one answer (`Content-Length`) at a time. */
async function openConnection(url: URL) {
	const socket: Socket = createConnection(Number(url.port), url.hostname);
	await new Promise<void>((resolve, reject) => {
		socket.once('connect', resolve);
		socket.once('error', reject);
	});
	let buffered = '';
	let waiting: (() => void) | undefined;
	socket.setEncoding('utf8');
	socket.on('data', (chunk: string) => {
		buffered += chunk;
		waiting?.();
	});
	const connection = {
		closedAt: undefined as number | undefined,
		closed: new Promise<number>((resolve) =>
			socket.once('close', () => resolve((connection.closedAt = Date.now()))),
		),
		async get(headers: Record<string, string> = {}): Promise<string> {
			const lines = Object.entries({ Host: url.host, ...headers }).map(([k, v]) => `${k}: ${v}`);
			socket.write(`GET / HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
			for (;;) {
				const end = buffered.indexOf('\r\n\r\n');
				const length = /\r\ncontent-length: (\d+)/i.exec(buffered.slice(0, end));
				if (end >= 0 && length && buffered.length >= end + 4 + Number(length[1])) {
					const answer = buffered.slice(0, end + 4 + Number(length[1]));
					buffered = buffered.slice(answer.length);
					return answer;
				}
				if (connection.closedAt !== undefined) throw new Error('the server closed the connection');
				await new Promise<void>((resolve) => {
					waiting = resolve;
					void connection.closed.then(() => resolve());
				});
			}
		},
	};
	return connection;
}
