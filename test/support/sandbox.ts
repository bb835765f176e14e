/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- tests run in plain Node, never inside n8n */
import { request as httpRequest } from 'node:http';
import Ajv2020 from 'ajv/dist/2020';
import { request } from 'undici';

import {
	createAutomationClient,
	createShortLinkClient,
	createWorkspaceClient,
	signedRequestPayload,
	signPayload,
	type HttpResponse,
	type Transport,
} from '../../src/client';
import { envelope, newDelivery } from '../../sandbox/delivery/delivery-engine';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/server';
import { Browser, type BrowserPage } from '../../dev/browser/chromium';
import { undiciTransport } from '../../dev/transports/undici';
import { resolveOnly } from './resolve';
import { startReceiver, type Receiver } from './receiver';

export { Receiver, startReceiver, type Received } from './receiver';
export { sleep, waitFor } from './waiting';

/**
 * A sandbox on a free loopback port, with the simulated channel and webhook retries sped up for tests. Under
 * `npm run test:contract` its `baseUrl` is its front of the contract proxy (test/support/contract-proxy/setup.mjs),
 * so that Prism validates every request and answer against docs/openapi.json.
 */
export async function startTestSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const sandbox = await startSandbox({
		port: 0,
		log: () => undefined,
		...options,
		// Made-up hosts of tests (cdn.example…) are never looked up in real DNS.
		outbound: { resolve: resolveOnly(), ...options.outbound },
		simulation: { deliveredAfterMs: 20, readAfterMs: 20, ...options.simulation },
		webhooks: { retryBaseMs: 20, maxRetryDelayMs: 200, ...options.webhooks },
	});
	const control = process.env.MULTICHANNEL_CONTRACT_PROXY_CONTROL;
	if (control) {
		const response = await request(control, {
			method: 'POST',
			body: JSON.stringify({ upstream: sandbox.baseUrl }),
		});
		// Its public URL too (short URLs, the console's cURL commands), as with a sandbox behind a proxy.
		sandbox.baseUrl = sandbox.core.baseUrl = ((await response.body.json()) as { url: string }).url;
	}
	return sandbox;
}

/** The sandbox's own address, which the contract proxy's front (its `baseUrl` under test:contract) is in front of. */
export const directUrl = (sandbox: Sandbox) => `http://127.0.0.1:${sandbox.port}`;

export interface Exchange {
	method: string;
	url: string;
	status: number;
	headers: Record<string, string | undefined>;
	body: unknown;
}

/** The undici transport, remembering every answer so tests can look at headers the client does not expose. */
export function recordingTransport(
	key: string,
	log: Exchange[] = [],
): Transport & { log: Exchange[] } {
	const inner = undiciTransport(key);
	return {
		log,
		async send(outgoing) {
			const response: HttpResponse = await inner.send(outgoing);
			log.push({ method: outgoing.method, url: outgoing.url, ...response });
			return response;
		},
	};
}

/** Typed clients for the three key kinds, without retries so that every status reaches the test. */
export function clientsFor(
	baseUrl: string,
	keys: { workspace: string; shortLink: string; automation: string },
	log?: Exchange[],
) {
	const options = { baseUrl, maxRetries: 0 };
	return {
		workspace: createWorkspaceClient(recordingTransport(keys.workspace, log), options),
		shortLink: createShortLinkClient(recordingTransport(keys.shortLink, log), options),
		automation: createAutomationClient(recordingTransport(keys.automation, log), options),
	};
}

export interface RawResponse {
	status: number;
	headers: Record<string, string | undefined>;
	body: unknown;
}

/** A plain HTTP call, for what the typed client would refuse to send or does not cover (sandbox-only paths). */
export async function raw(
	baseUrl: string,
	method: string,
	path: string,
	options: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
	const headers: Record<string, string> = { ...options.headers };
	if (options.key) headers.authorization = `Bearer ${options.key}`;
	let body: string | undefined;
	if (options.body !== undefined) {
		body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
		headers['content-type'] ??= 'application/json';
	}
	const response = await request(`${baseUrl}${path}`, { method: method as 'GET', headers, body });
	const text = await response.body.text();
	const flat: Record<string, string | undefined> = {};
	for (const [name, value] of Object.entries(response.headers))
		flat[name] = Array.isArray(value) ? value.join(', ') : value;
	let parsed: unknown = text;
	try {
		parsed = text === '' ? undefined : JSON.parse(text);
	} catch {
		parsed = text;
	}
	return { status: response.statusCode, headers: flat, body: parsed };
}

/** The signature header of a claim POSTed to `path` (`/api/v1/…`), as the client signs it: method, path and body. */
export function claimSignature(
	secret: string,
	path: string,
	body: string,
	seconds?: number,
): string {
	return signPayload(secret, signedRequestPayload('POST', path, body), seconds);
}

/** A phone's browser, as a person opening a short link (clicks by bots are recorded, but not counted nor listed). */
export const PHONE_BROWSER =
	'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

/** Checks a value against a JSON schema (2020-12): null when it matches, else the errors as text. */
export type SchemaCheck = (value: unknown) => string | null;

// Formats describe requests; answers are checked for their shape, so formats are not asserted.
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });

export function jsonSchemaValidator(schema: Record<string, unknown>): SchemaCheck {
	const validate = ajv.compile(schema);
	return (value) => (validate(value) ? null : ajv.errorsText(validate.errors));
}

/**
 * A POST whose body is sent chunked (`Transfer-Encoding: chunked`, no Content-Length) in 64 KiB pieces, as
 * `curl -H 'Transfer-Encoding: chunked' --data-binary @file` does. Resolves with the answer, or with the
 * connection error when there was none.
 */
export function postChunked(
	baseUrl: string,
	path: string,
	options: { key?: string; bytes: number },
): Promise<{ status?: number; body?: unknown; error?: string }> {
	return new Promise((resolve) => {
		const headers: Record<string, string> = {
			'content-type': 'application/json',
			'transfer-encoding': 'chunked',
		};
		if (options.key) headers.authorization = `Bearer ${options.key}`;
		const req = httpRequest(`${baseUrl}${path}`, { method: 'POST', headers });
		req.on('response', (res) => {
			let text = '';
			res.setEncoding('utf8');
			res.on('data', (chunk: string) => (text += chunk));
			res.on('end', () => {
				let body: unknown = text;
				try {
					body = JSON.parse(text);
				} catch {
					body = text;
				}
				resolve({ status: res.statusCode, body });
			});
		});
		req.on('error', (error) => resolve({ error: error.message }));
		// An answer that never comes is a failure too, and should not hold the test until jest's timeout.
		req.setTimeout(10_000, () => req.destroy(new Error('no answer within 10 s')));
		const chunk = Buffer.alloc(64 * 1024, 'a');
		let sent = 0;
		const pump = () => {
			while (sent < options.bytes && !req.destroyed) {
				const piece = chunk.subarray(0, Math.min(chunk.length, options.bytes - sent));
				sent += piece.length;
				if (!req.write(piece)) {
					req.once('drain', pump);
					return;
				}
			}
			if (!req.destroyed) req.end();
		};
		pump();
	});
}

/**
 * A test sandbox for a whole `describe`: started before its tests, closed after them. Read `.sandbox` and
 * `.keys` (the seeded workspace's keys) inside the tests.
 */
export function suiteSandbox(options: SandboxOptions = {}): {
	sandbox: Sandbox;
	keys: NonNullable<Sandbox['keys']>;
} {
	const suite = {} as { sandbox: Sandbox; keys: NonNullable<Sandbox['keys']> };
	beforeAll(async () => {
		suite.sandbox = await startTestSandbox(options);
		suite.keys = suite.sandbox.keys as NonNullable<Sandbox['keys']>;
	});
	afterAll(() => suite.sandbox?.close());
	return suite;
}

/** The keys of the workspace a test sandbox seeds. */
export type SandboxKeys = NonNullable<Sandbox['keys']>;

/**
 * Records at the sandbox that an event made up by a test was delivered to a webhook, as the delivery engine
 * records a delivery (without sending it): the sandbox takes claims only of events it delivered.
 */
export function recordDelivery(sandbox: Sandbox, webhookId: string, eventId: string): void {
	const event = {
		...envelope(sandbox.workspaceId, 'automation.*', {}, sandbox.core.now()),
		id: eventId,
	};
	sandbox.store.insert('deliveries', {
		id: `dlv_${eventId}`,
		workspaceId: event.workspaceId,
		webhookId,
		eventType: event.type,
		createdAt: event.createdAt,
		...newDelivery(event),
	});
}

/** A test sandbox with its typed clients and a webhook receiver, as `sandboxWithReceiver` keeps them. */
export interface SandboxWithReceiver {
	sandbox: Sandbox;
	keys: SandboxKeys;
	clients: ReturnType<typeof clientsFor>;
	receiver: Receiver;
}

/**
 * A test sandbox and a webhook receiver for a whole file or `describe`: started before its tests (jest's
 * beforeAll, so register it before hooks that use it), closed after them. Read the fields inside the tests.
 */
export function sandboxWithReceiver(options: SandboxOptions = {}): SandboxWithReceiver {
	const suite = {} as SandboxWithReceiver;
	beforeAll(async () => {
		suite.sandbox = await startTestSandbox(options);
		suite.keys = suite.sandbox.keys as SandboxKeys;
		suite.clients = clientsFor(suite.sandbox.baseUrl, suite.keys);
		suite.receiver = await startReceiver();
	});
	afterAll(async () => {
		await suite.sandbox?.close();
		await suite.receiver?.close();
	});
	return suite;
}

/** Subscribes the receiver to every workspace event (at its path /all) and trusts the webhook's secret. */
export async function receiveAllWorkspaceEvents({ clients, receiver }: SandboxWithReceiver) {
	const webhook = await clients.workspace.webhooks.create({
		body: { url: `${receiver.url}/all`, events: ['*'] },
	});
	receiver.secrets.push(webhook.secret);
	return webhook;
}

/**
 * A sandbox and a page of headless chromium for the console's browser tests: started before the file's tests
 * (jest's beforeAll, so register it before hooks that use it) and closed after them.
 */
export function consoleInBrowser(): { sandbox: Sandbox; page: BrowserPage } {
	const session = {} as { sandbox: Sandbox; page: BrowserPage };
	let browser: Browser | undefined;
	beforeAll(async () => {
		session.sandbox = await startTestSandbox();
		browser = await Browser.launch({ timeoutMs: 30_000 });
		session.page = await browser.newPage();
	}, 60_000);
	afterAll(async () => {
		await browser?.close();
		await session.sandbox?.close();
	}, 30_000);
	return session;
}

/** Waits until the console page at /user/api has loaded its reference and its session. */
export async function consoleReady(page: BrowserPage): Promise<void> {
	await page.waitFor(`document.body.getAttribute('data-ready') === 'true'`, {
		timeoutMs: 15_000,
		what: 'the console to load',
	});
}

/** Opens the console afresh and signs in with `key` (signing out first when the tab still holds a key). */
export async function signInToConsole(
	page: BrowserPage,
	baseUrl: string,
	key: string,
): Promise<void> {
	await page.goto(`${baseUrl}/user/api`);
	await consoleReady(page);
	if (await page.evaluate(`document.getElementById('signin').hidden`)) {
		await page.click('#signout');
	}
	await page.type('#signin-key', key);
	await page.click('#signin-submit');
	await page.waitFor(`document.getElementById('signin').hidden`, { what: 'signed in' });
}

/** An instance taken through create → connect (QR) → the sandbox's scan: connected, it sends and receives. */
export async function connectedInstance(
	sandbox: Sandbox,
	name: string,
	phoneNumber: string,
): Promise<{ id: string; phoneNumber: string }> {
	const keys = sandbox.keys as { workspace: string; shortLink: string; automation: string };
	const client = clientsFor(sandbox.baseUrl, keys).workspace;
	const instance = await client.instances.create({ body: { name } });
	await client.instances.connect({ instanceId: instance.id, body: { method: 'qr' } });
	const scan = await raw(sandbox.baseUrl, 'POST', `/sandbox/instances/${instance.id}/scan`, {
		key: keys.workspace,
		body: { phoneNumber },
	});
	if (scan.status !== 200) throw new Error(`scan: ${JSON.stringify(scan.body)}`);
	return { id: instance.id, phoneNumber };
}
