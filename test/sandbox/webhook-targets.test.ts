/* eslint-disable @n8n/community-nodes/no-restricted-imports -- tests run in plain Node, never inside n8n */
import type { LookupAddress } from 'node:dns';
import { createServer as createTcpServer, type AddressInfo, type Server } from 'node:net';

import { request } from 'undici';

import { outboundAgent } from '../../sandbox/outbound/agent';
import { guardedLookup } from '../../sandbox/outbound/policy';
import { resolveOnly } from '../support/resolve';
import { raw, startReceiver, suiteSandbox, waitFor } from '../support/sandbox';

/**
 * Where webhooks may point (the outbound policy of receivers, sandbox/outbound/): not at link-local,
 * cloud-metadata, unspecified or multicast targets in any written form, never with credentials in the URL,
 * and the delivery log does not tell a closed port from any other connection failure. Loopback (the local
 * n8n) stays allowed.
 */

const REFUSED = [
	'http://169.254.169.254/latest/meta-data/',
	'http://169.254.1.1:8080/hook',
	'http://2852039166/latest/meta-data/',
	'http://[::ffff:169.254.169.254]/',
	'http://[::a9fe:a9fe]/',
	'http://[64:ff9b::a9fe:a9fe]/',
	'http://[::ffff:0:a9fe:a9fe]/',
	'http://0.0.0.0:5678/webhook/x',
	'http://[::]:5678/webhook/x',
	'http://239.1.2.3/hook',
	'http://[fe80::1]/hook',
	'http://[fd00:ec2::254]/latest/meta-data/',
	'http://100.100.100.200/latest/meta-data/',
	'http://metadata.google.internal/computeMetadata/v1/',
	'http://METADATA.GOOGLE.INTERNAL./computeMetadata/v1/',
	'http://metadata.goog/computeMetadata/v1/',
	'http://user:hunter2secret@127.0.0.1:5678/webhook/x',
	'http://token@127.0.0.1:5678/webhook/x',
];

describe('webhook targets', () => {
	const suite = suiteSandbox({
		webhooks: { retryBaseMs: 10, maxRetryDelayMs: 20, maxAttempts: 1, timeoutMs: 2000 },
		// A name that resolves to the receiver and to the metadata address (DNS rebinding).
		outbound: { resolve: resolveOnly({ 'rebind.example': ['127.0.0.1', '169.254.169.254'] }) },
	});

	const create = (url: string) =>
		raw(suite.sandbox.baseUrl, 'POST', '/api/v1/automation/webhooks', {
			key: suite.keys.automation,
			body: { url, events: ['*'] },
		});

	it('refuses link-local and metadata targets and credentials in the URL, naming body.url', async () => {
		const { sandbox } = suite;
		for (const url of REFUSED) {
			const answer = await create(url);
			expect([url, answer.status]).toEqual([url, 400]);
			expect(answer.body).toMatchObject({
				error: { code: 'validation_failed', details: [{ field: 'body.url' }] },
			});
			expect(JSON.stringify(answer.body)).not.toContain('hunter2secret');
		}
		expect(sandbox.store.all('webhooks')).toEqual([]);
	});

	it('refuses them on update too, leaving the webhook as it was', async () => {
		const { sandbox, keys } = suite;
		const created = await create('http://127.0.0.1:5678/webhook/ok');
		expect(created.status).toBe(201);
		const id = (created.body as { id: string }).id;
		for (const url of REFUSED) {
			const answer = await raw(sandbox.baseUrl, 'PATCH', `/api/v1/automation/webhooks/${id}`, {
				key: keys.automation,
				body: { url, description: 'changed' },
			});
			expect([url, answer.status]).toEqual([url, 400]);
		}
		expect(sandbox.store.get('webhooks', id)).toMatchObject({
			url: 'http://127.0.0.1:5678/webhook/ok',
			description: null,
		});
	});

	it('allows loopback, where the local n8n listens, and delivers there by name', async () => {
		const { sandbox, keys } = suite;
		for (const url of ['http://localhost:5678/webhook/a', 'http://[::1]:5678/webhook/b']) {
			expect((await create(url)).status).toBe(201);
		}
		const receiver = await startReceiver();
		try {
			const created = await raw(sandbox.baseUrl, 'POST', '/api/v1/automation/webhooks', {
				key: keys.automation,
				body: {
					url: receiver.url.replace('127.0.0.1', 'localhost'),
					events: ['automation.by.name'],
				},
			});
			receiver.secrets.push((created.body as { secret: string }).secret);
			await raw(sandbox.baseUrl, 'POST', '/api/v1/automation/events', {
				key: keys.automation,
				body: { name: 'by.name', payload: {} },
			});
			const delivery = await receiver.waitForEvent('automation.by.name');
			expect(delivery.signature.valid).toBe(true);
		} finally {
			await receiver.close();
		}
	});

	it('never delivers to a name that resolves to a refused address, even beside loopback', async () => {
		const { sandbox, keys } = suite;
		const receiver = await startReceiver();
		try {
			const url = receiver.url.replace('127.0.0.1', 'rebind.example');
			const created = await create(url);
			expect(created.status).toBe(201);
			const id = (created.body as { id: string }).id;
			await raw(sandbox.baseUrl, 'POST', '/api/v1/automation/events', {
				key: keys.automation,
				body: { name: 'rebind', payload: {} },
			});
			const delivery = await waitFor(
				() =>
					sandbox.store.all(
						'deliveries',
						(entry) => entry.webhookId === id && entry.status !== 'pending',
					)[0],
				8000,
				'the delivery to end',
			);
			// Never connected, so kept for when the webhook can be reached (it is disabled meanwhile).
			expect(delivery.status).toBe('held');
			expect(receiver.received).toEqual([]);
		} finally {
			await receiver.close();
		}
	});

	it('never shows credentials kept in a webhook URL from before', async () => {
		const { sandbox, keys } = suite;
		const created = await create('http://127.0.0.1:5678/webhook/old');
		const id = (created.body as { id: string }).id;
		const record = sandbox.store.get('webhooks', id);
		if (record) record.url = 'http://user:hunter2secret@127.0.0.1:5678/webhook/old';
		const shown = await raw(sandbox.baseUrl, 'GET', `/api/v1/automation/webhooks/${id}`, {
			key: keys.automation,
		});
		expect(shown.status).toBe(200);
		expect(JSON.stringify(shown.body)).not.toContain('hunter2secret');
		expect((shown.body as { url: string }).url).toBe('http://127.0.0.1:5678/webhook/old');
	});

	it('reports every failure to connect with one text, whatever the port or host', async () => {
		const { sandbox, keys } = suite;
		// A port that was open and is closed now; one that accepts and hangs up; a name that does not resolve.
		const closed = createTcpServer();
		await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
		const closedPort = (closed.address() as AddressInfo).port;
		await new Promise<void>((resolve) => closed.close(() => resolve()));
		const hangUp: Server = createTcpServer((socket) => socket.destroy());
		await new Promise<void>((resolve) => hangUp.listen(0, '127.0.0.1', resolve));
		const hangUpPort = (hangUp.address() as AddressInfo).port;
		try {
			const targets = [
				`http://127.0.0.1:${closedPort}/hook`,
				`http://127.0.0.1:${hangUpPort}/hook`,
				'http://no-such-host.invalid/hook',
			];
			const ids: string[] = [];
			for (const url of targets) {
				const created = await raw(sandbox.baseUrl, 'POST', '/api/v1/automation/webhooks', {
					key: keys.automation,
					body: { url, events: ['automation.port.check'] },
				});
				ids.push((created.body as { id: string }).id);
			}
			await raw(sandbox.baseUrl, 'POST', '/api/v1/automation/events', {
				key: keys.automation,
				body: { name: 'port.check', payload: {} },
			});
			const errors = await waitFor(
				() => {
					const found = ids.map(
						(id) =>
							sandbox.store.all('deliveries', (delivery) => delivery.webhookId === id)[0]
								?.attempts[0]?.error,
					);
					return found.every(Boolean) ? found : undefined;
				},
				8000,
				'a failed attempt at each target',
			);
			expect(new Set(errors).size).toBe(1);
			for (const text of errors) {
				expect(text).not.toMatch(/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|closed|socket/i);
				expect(text).not.toContain(String(closedPort));
				expect(text).not.toContain(String(hangUpPort));
			}
		} finally {
			hangUp.close();
		}
	});
});

describe('the connection guard of every outbound connection', () => {
	it('checks the address connected to, whatever the URL check let through', async () => {
		const { createServer } = await import('node:http');
		let hits = 0;
		const server = createServer((_req, res) => {
			hits++;
			res.end('local secret');
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const port = (server.address() as AddressInfo).port;
		const files = outboundAgent({ loopback: false }, resolveOnly());
		const receivers = outboundAgent({ loopback: true }, resolveOnly());
		try {
			for (const url of [`http://127.0.0.1:${port}/`, `http://localhost:${port}/`]) {
				await expect(request(url, { dispatcher: files })).rejects.toMatchObject({
					code: 'EREFUSEDTARGET',
				});
			}
			await expect(
				request('http://169.254.169.254/latest/meta-data/', { dispatcher: receivers }),
			).rejects.toMatchObject({ code: 'EREFUSEDTARGET' });
			expect(hits).toBe(0);
			const allowed = await request(`http://127.0.0.1:${port}/`, { dispatcher: receivers });
			expect(await allowed.body.text()).toBe('local secret');
		} finally {
			await Promise.all([files.destroy(), receivers.destroy()]);
			server.close();
		}
	});

	const resolvingTo =
		(...addresses: string[]) =>
		(
			_hostname: string,
			_options: object,
			callback: (error: Error | null, addresses: LookupAddress[]) => void,
		) =>
			callback(
				null,
				addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
			);

	const lookUp = (resolve: ReturnType<typeof resolvingTo>, all: boolean) =>
		new Promise<{ error: Error | null; result: unknown }>((done) =>
			guardedLookup({ loopback: true }, resolve as never)(
				'receiver.example',
				{ all },
				(error, result) => done({ error, result }),
			),
		);

	it('refuses a name that resolves to a link-local or metadata address (DNS rebinding)', async () => {
		for (const address of ['169.254.169.254', 'fe80::1', '100.100.100.200']) {
			const { error } = await lookUp(resolvingTo('127.0.0.1', address), true);
			expect(error).toBeInstanceOf(Error);
		}
	});

	it('passes other names through, in both forms of the lookup callback', async () => {
		expect(await lookUp(resolvingTo('127.0.0.1'), true)).toEqual({
			error: null,
			result: [{ address: '127.0.0.1', family: 4 }],
		});
		expect(await lookUp(resolvingTo('127.0.0.1'), false)).toEqual({
			error: null,
			result: '127.0.0.1',
		});
	});
});
