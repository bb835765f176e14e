// The contract proxy: a validating proxy built from docs/openapi.json by a tool no one here wrote (Prism,
// `@stoplight/prism-cli` in proxy mode) in front of sandboxes, collecting every violation it reports. Plain Node.
//
//   client → front (one per sandbox) → Prism → router → that sandbox
//
// Prism validates each request against the document, forwards it, and validates the answer; it reports what does not
// match in its `sl-violations` answer header (without `--errors`, so that requests the document forbids still reach
// the sandbox, whose refusal is what the tests check). Prism re-encodes what it forwards (JSON re-serialized, other
// bodies read as UTF-8 text, the query rebuilt), so it is the validator here, not the transport: the front keeps the
// request's bytes, the router sends those to the sandbox and keeps the answer's bytes, and the front gives the
// client those. One Prism serves every sandbox: the front names the exchange in a header Prism forwards.
//
// Paths the document does not describe (the console, `/sandbox/*` simulation, `/api/v1/openapi.json`) go from the
// front straight to the sandbox, and so does a request Prism answers itself without forwarding (a body it cannot
// parse, a GET with a body): both are counted in the report, as `direct`.
import { createRequire } from 'node:module';
import { Agent, request as httpRequest, createServer } from 'node:http';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { REPO } from '../n8n/runtime.mjs';
import { freePort, Service } from '../stack/processes.mjs';

const DOCUMENT = join(REPO, 'docs', 'openapi.json');
const EXCHANGE_HEADER = 'x-contract-exchange';
/** Hop-by-hop headers, which a proxy does not pass on (RFC 9110, 7.6.1). */
const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection'];
/**
 * A new connection for every hop. A kept-alive one can be closed by its server (Prism's or a sandbox's idle timeout)
 * just as the next request goes out on it, which drops that request: CI once lost a test to this race.
 */
const agent = new Agent({ keepAlive: false });

/** The document's paths as patterns: `{name}` is one path segment. */
function documentedPaths() {
	const document = JSON.parse(readFileSync(DOCUMENT, 'utf8'));
	return Object.keys(document.paths).map(
		(path) => new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
	);
}

function readBody(stream) {
	return new Promise((resolve, reject) => {
		const chunks = [];
		stream.on('data', (chunk) => chunks.push(chunk));
		stream.on('end', () => resolve(Buffer.concat(chunks)));
		stream.on('error', reject);
	});
}

function without(headers, names) {
	return Object.fromEntries(
		Object.entries(headers).filter(([name]) => !names.includes(name.toLowerCase())),
	);
}

/** One HTTP exchange with `target` (a base URL): the answer's status, headers and bytes. */
function send(target, { method, url, headers, body }) {
	return new Promise((resolve, reject) => {
		const outgoing = httpRequest(new URL(url, target), {
			method,
			agent,
			headers: { ...without(headers, ['host', ...HOP_BY_HOP]), 'content-length': body.length },
		});
		outgoing.on('response', (response) =>
			readBody(response).then(
				(bytes) => resolve({ status: response.statusCode, headers: response.headers, body: bytes }),
				reject,
			),
		);
		outgoing.on('error', reject);
		outgoing.end(body);
	});
}

function reply(res, answer) {
	res.writeHead(answer.status, without(answer.headers, HOP_BY_HOP));
	res.end(answer.body);
}

/** The sandbox cut the connection (a body far over its limit): so does the proxy, as a transparent one would. */
function cut(res, record, error) {
	record.status = 0;
	record.reason = `${record.reason ? `${record.reason}; ` : ''}no answer from the sandbox: ${error}`;
	res.destroy();
}

/** The proxy's own failure (Prism unreachable), said in a 502 that names it rather than a bare socket error. */
function failed(res, reason) {
	if (res.headersSent) return res.destroy();
	res
		.writeHead(502, { 'content-type': 'text/plain', 'x-contract-proxy-error': '1' })
		.end(`contract proxy: ${reason}`);
}

function listen(server, port = 0) {
	// Clients (undici, Prism) close idle connections themselves; a server timeout would race them (see `agent`).
	server.keepAliveTimeout = 0;
	return new Promise((resolve) =>
		server.listen(port, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`)),
	);
}

function close(server) {
	server.closeAllConnections();
	return new Promise((resolve) => server.close(() => resolve()));
}

/** Prism's command line, run by this Node. */
function prismCli() {
	const require = createRequire(import.meta.url);
	const manifest = require.resolve('@stoplight/prism-cli/package.json');
	return join(dirname(manifest), JSON.parse(readFileSync(manifest, 'utf8')).bin.prism);
}

async function startPrism(upstream, logFile) {
	mkdirSync(dirname(logFile), { recursive: true });
	const port = await freePort();
	const service = new Service(
		'prism',
		process.execPath,
		[
			prismCli(),
			'proxy',
			DOCUMENT,
			upstream,
			'--host',
			'127.0.0.1',
			'--port',
			String(port),
			'--verboseLevel',
			'warn',
		],
		{ cwd: REPO, env: process.env, logFile },
	);
	const url = `http://127.0.0.1:${port}`;
	const deadline = Date.now() + 60_000;
	for (;;) {
		try {
			await send(url, { method: 'GET', url: '/', headers: {}, body: Buffer.alloc(0) });
			return { service, url };
		} catch (error) {
			if (!service.running) throw new Error(`prism exited early:\n${service.output.slice(-3000)}`);
			if (Date.now() > deadline) {
				await service.stop();
				throw new Error(`prism did not answer within 60 s: ${error.message}`);
			}
			await sleep(100);
		}
	}
}

/** Prism's `sl-violations` header as a list (it cuts the text past 8 KiB: then one violation says so). */
function violationsOf(headers) {
	const text = headers['sl-violations'];
	if (!text) return [];
	try {
		return JSON.parse(text);
	} catch {
		return [
			{
				location: ['response'],
				severity: 'Error',
				message: `unreadable sl-violations: ${text.slice(0, 200)}`,
			},
		];
	}
}

/**
 * Starts Prism and its router. `front(sandboxUrl)` starts a front for a sandbox and gives its URL, which clients use
 * instead of the sandbox's; `exchanges` lists every request that went through a front; `close()` stops everything.
 */
export async function startContractProxy({ logFile }) {
	const documented = documentedPaths();
	const pending = new Map();
	const exchanges = [];
	let nextId = 1;

	// Prism forwards here; the exchange header says which request this is and where it goes.
	const router = createServer(async (req, res) => {
		const exchange = pending.get(req.headers[EXCHANGE_HEADER]);
		await readBody(req);
		if (!exchange) {
			res.writeHead(404).end();
			return;
		}
		exchange.forwarded = true;
		try {
			exchange.answer = await send(exchange.upstream, exchange.request);
			reply(res, exchange.answer);
		} catch (error) {
			exchange.error = error.message;
			res.destroy();
		}
	});
	const routerUrl = await listen(router);
	const prism = await startPrism(routerUrl, logFile);

	const fronts = new Set();
	/** `port`: 0 for any free one, or one chosen before the sandbox starts, to be its public URL. */
	async function front(upstream, port = 0) {
		const server = createServer(async (req, res) => {
			const request = {
				method: req.method,
				url: req.url,
				headers: req.headers,
				body: await readBody(req),
			};
			const path = new URL(req.url, 'http://front').pathname;
			const record = { method: req.method, path, via: 'prism', violations: [] };
			exchanges.push(record);
			let exchange;
			try {
				if (!documented.some((pattern) => pattern.test(path))) {
					record.via = 'direct';
					record.reason = 'not in the document';
					return await answerDirectly(res, record, upstream, request);
				}
				const id = String(nextId++);
				exchange = { upstream, request };
				pending.set(id, exchange);
				const checked = await send(prism.url, {
					...request,
					headers: { ...request.headers, [EXCHANGE_HEADER]: id },
				}).finally(() => pending.delete(id));
				record.violations = violationsOf(checked.headers);
				if (exchange.answer) {
					record.status = exchange.answer.status;
					return reply(res, exchange.answer);
				}
				if (exchange.forwarded) return cut(res, record, exchange.error);
				record.via = 'direct';
				record.reason = `Prism answered ${checked.status} without forwarding: ${checked.body.toString('utf8').slice(0, 300)}`;
				return await answerDirectly(res, record, upstream, request);
			} catch (error) {
				// Prism hung up on us because the sandbox hung up on it.
				if (exchange?.error) return cut(res, record, exchange.error);
				// Prism stopped reading a body far over its own limit, before forwarding: straight to the sandbox.
				if (error.code === 'EPIPE' && !exchange?.forwarded) {
					record.via = 'direct';
					record.reason = `Prism hung up without forwarding: ${error.message}`;
					return await answerDirectly(res, record, upstream, request);
				}
				record.reason = `proxy error: ${error.message}`;
				failed(res, record.reason);
			}
		});
		fronts.add(server);
		return await listen(server, port);
	}

	async function answerDirectly(res, record, upstream, request) {
		let answer;
		try {
			answer = await send(upstream, request);
		} catch (error) {
			return cut(res, record, error.message);
		}
		record.status = answer.status;
		reply(res, answer);
	}

	async function stop() {
		await Promise.all([...fronts, router].map(close));
		// Not Service.stop(), whose 15 s grace timer would hold jest's main process open that long after the run.
		prism.service.signalGroup('SIGKILL');
		await prism.service.exited;
		await new Promise((resolve) => prism.service.log.end(resolve));
		agent.destroy();
	}

	// `stop` as the stack's other parts have it, so that a stack stops the proxy with them.
	return { front, exchanges, stop };
}
