/* eslint-disable @n8n/community-nodes/no-restricted-imports -- tests run in plain Node, never inside n8n */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Sandbox, SandboxOptions } from '../../sandbox/server';
import { resolveOnly } from '../support/resolve';
import { connectedInstance, raw, startTestSandbox, waitFor } from '../support/sandbox';

/**
 * Files sent by URL go through the outbound policy (sandbox/outbound/): the sandbox would serve their bytes
 * back, so a URL at a link-local, metadata, unspecified or (by default) loopback address is refused at the
 * send (400 naming body.url), a name that resolves to one fails the message when the file is fetched, and so
 * does a redirect to one. Names resolve through an injected table: nothing leaves the machine.
 */

const NAMES = {
	'metadata-alias.example': ['169.254.169.254'],
	'mapped-alias.example': ['::ffff:169.254.169.254'],
	'local-alias.example': ['127.0.0.1'],
};

/** A loopback file server that counts its requests and redirects `/go?to=<url>`. */
async function fileServer(): Promise<{ url: string; hits: string[]; close(): Promise<void> }> {
	const hits: string[] = [];
	const server: Server = createServer((req, res) => {
		hits.push(req.url ?? '');
		const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to');
		if (to) {
			res.writeHead(302, { location: to }).end();
			return;
		}
		if (req.url?.startsWith('/missing')) {
			res.writeHead(404).end();
			return;
		}
		res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from('PNG bytes'));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		hits,
		close: () => new Promise((resolve) => server.close(() => resolve())),
	};
}

function mediaSandbox(options: SandboxOptions) {
	const env = {} as { sandbox: Sandbox; key: string; instanceId: string };
	beforeAll(async () => {
		env.sandbox = await startTestSandbox({ rateLimit: false, ...options });
		env.key = (env.sandbox.keys as NonNullable<Sandbox['keys']>).workspace;
		env.instanceId = (await connectedInstance(env.sandbox, 'Media', '+14155550190')).id;
	});
	afterAll(() => env.sandbox.close());
	const send = (url: string) =>
		raw(env.sandbox.baseUrl, 'POST', `/api/v1/instances/${env.instanceId}/messages/media`, {
			key: env.key,
			body: { to: '+14155550195', mediaType: 'image', url },
		});
	/** The message once its fetch has ended: failed, or on its way with or without a file. */
	const settled = (id: string) =>
		waitFor(
			() => {
				const message = env.sandbox.store.get('messages', id);
				return message && message.status !== 'sent' ? message : undefined;
			},
			5000,
			`message ${id} to settle`,
		);
	/** Sends by URL: accepted, then failed when the fetch is refused, without a file. */
	const refusedAtFetch = async (url: string) => {
		const answer = await send(url);
		expect([url, answer.status]).toEqual([url, 201]);
		const message = await settled((answer.body as { id: string }).id);
		expect([url, message.status, message.error?.code]).toEqual([
			url,
			'failed',
			'media_url_refused',
		]);
		expect(message.media).toBeUndefined();
		return message;
	};
	return { env, send, settled, refusedAtFetch };
}

const refusedAtSend = (answer: { status: number; body: unknown }) => {
	expect(answer.status).toBe(400);
	expect(answer.body).toMatchObject({
		error: { code: 'validation_failed', details: [{ field: 'body.url' }] },
	});
};

describe('media by URL: the outbound policy, by default (loopback refused)', () => {
	const { env, send, settled, refusedAtFetch } = mediaSandbox({
		outbound: { resolve: resolveOnly(NAMES) },
	});
	let files: Awaited<ReturnType<typeof fileServer>>;
	beforeAll(async () => {
		files = await fileServer();
	});
	afterAll(() => files.close());

	it('refuses metadata, link-local, unspecified and multicast addresses in every written form (400, body.url)', async () => {
		const urls = [
			'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
			'http://2852039166/latest/meta-data/',
			'http://0xa9.0xfe.0xa9.0xfe/latest/meta-data/',
			'http://[::ffff:169.254.169.254]/latest/meta-data/',
			'http://[::a9fe:a9fe]/latest/meta-data/',
			'http://[64:ff9b::a9fe:a9fe]/latest/meta-data/',
			'http://[64:ff9b:1::a9fe:a9fe]/latest/meta-data/',
			'http://[2002:a9fe:a9fe::1]/latest/meta-data/',
			'http://[fe80::1]/x',
			'http://[fd00:ec2::254]/latest/meta-data/',
			'http://100.100.100.200/latest/meta-data/',
			'http://metadata.google.internal/computeMetadata/v1/',
			'http://0.0.0.0:8080/x',
			'http://[::]:8080/x',
			'http://224.0.0.1/x',
			'http://255.255.255.255/x',
		];
		for (const url of urls) {
			const answer = await send(url);
			expect([url, answer.status]).toEqual([url, 400]);
			refusedAtSend(answer);
		}
		expect(env.sandbox.store.all('messages')).toEqual([]);
	});

	it('refuses loopback for files: their bytes would be served back (400, body.url)', async () => {
		const port = new URL(files.url).port;
		for (const url of [
			`${files.url}/secret`,
			`http://localhost:${port}/secret`,
			`http://127.1.2.3:${port}/secret`,
			`http://[::1]:${port}/secret`,
			`http://[::ffff:127.0.0.1]:${port}/secret`,
			`http://[::7f00:1]:${port}/secret`,
		]) {
			refusedAtSend(await send(url));
		}
		expect(files.hits).toEqual([]);
	});

	it('refuses a user name or password and schemes other than http(s) (400, body.url)', async () => {
		refusedAtSend(await send('http://user:hunter2@cdn.example/a.png'));
		refusedAtSend(await send('ftp://cdn.example/a.png'));
		refusedAtSend(await send('file:///etc/passwd'));
	});

	it('fails the message when the name resolves to a refused address at fetch time', async () => {
		for (const host of ['metadata-alias.example', 'mapped-alias.example', 'local-alias.example']) {
			const port = new URL(files.url).port;
			const message = await refusedAtFetch(`http://${host}:${port}/latest/meta-data/`);
			const download = await raw(
				env.sandbox.baseUrl,
				'GET',
				`/api/v1/messages/${message.id}/media`,
				{ key: env.key },
			);
			expect(download.status).toBe(404);
			expect(
				env.sandbox.events.some(
					(event) =>
						event.type === 'message.failed' && (event.data as { id: string }).id === message.id,
				),
			).toBe(true);
		}
		expect(files.hits).toEqual([]);
	});

	it('fails a message whose file cannot be fetched for other reasons, saying why (issue 45: it was sent, then read, with no file)', async () => {
		const answer = await send('https://cdn.example/unknown-host.png');
		const message = await settled((answer.body as { id: string }).id);
		expect(message.status).toBe('failed');
		expect(message.error).toEqual({
			code: 'media_unreachable',
			message: 'The file at the URL could not be fetched: no HTTP answer from the URL',
		});
		expect(message.media).toBeUndefined();
	});
});

describe('media by URL from loopback, when the sandbox allows it', () => {
	const { send, settled, refusedAtFetch } = mediaSandbox({
		outbound: { resolve: resolveOnly(NAMES), mediaFromLoopback: true },
	});
	let files: Awaited<ReturnType<typeof fileServer>>;
	beforeAll(async () => {
		files = await fileServer();
	});
	afterAll(() => files.close());

	it('fetches a file from loopback, following a redirect there', async () => {
		const target = encodeURIComponent(`http://localhost:${new URL(files.url).port}/a.png`);
		const answer = await send(`${files.url}/go?to=${target}`);
		expect(answer.status).toBe(201);
		const message = await settled((answer.body as { id: string }).id);
		expect(message.status).not.toBe('failed');
		expect(message.media).toMatchObject({ mimeType: 'image/png', size: 'PNG bytes'.length });
	});

	it('fails a message whose URL answers 404, saying so', async () => {
		const answer = await send(`${files.url}/missing.png`);
		const message = await settled((answer.body as { id: string }).id);
		expect([message.status, message.error]).toEqual([
			'failed',
			{
				code: 'media_unreachable',
				message: 'The file at the URL could not be fetched: the URL answered HTTP 404',
			},
		]);
	});

	it('still refuses metadata at the send, and fails a redirect to a refused address', async () => {
		refusedAtSend(await send('http://[::a9fe:a9fe]/latest/meta-data/'));
		for (const to of [
			'http://169.254.169.254/latest/meta-data/',
			'http://[64:ff9b::a9fe:a9fe]/latest/meta-data/',
			'http://metadata-alias.example/latest/meta-data/',
			'http://user:pass@127.0.0.1/',
			'file:///etc/passwd',
		]) {
			await refusedAtFetch(`${files.url}/go?to=${encodeURIComponent(to)}`);
		}
	});
});
