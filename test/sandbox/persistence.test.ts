/* eslint-disable @n8n/community-nodes/no-restricted-imports -- tests run in plain Node, never inside n8n */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Sandbox } from '../../sandbox/server';
import { clientsFor, raw, startReceiver, startTestSandbox, waitFor } from '../support/sandbox';

type Keys = NonNullable<Sandbox['keys']>;

describe('sandbox persistence', () => {
	const directory = mkdtempSync(join(tmpdir(), 'sandbox-state-'));
	const dataFile = join(directory, 'nested', 'state.json');
	afterAll(() => rmSync(directory, { recursive: true, force: true }));

	it('reloads everything after a restart: keys, instances, links, clicks, webhooks and undelivered events', async () => {
		// A receiver that is down during the first run: its port is reserved, then closed.
		const placeholder = await startReceiver();
		const receiverPort = Number(new URL(placeholder.url).port);
		await placeholder.close();

		const first = await startTestSandbox({
			dataFile,
			webhooks: { retryBaseMs: 200, maxRetryDelayMs: 400 },
		});
		const keys = first.keys as Keys;
		expect(keys).toBeDefined();
		let clients = clientsFor(first.baseUrl, keys);

		const instance = await clients.workspace.instances.create({ body: { name: 'Persistent' } });
		await clients.workspace.instances.connect({ instanceId: instance.id, body: {} });
		await raw(first.baseUrl, 'POST', `/sandbox/instances/${instance.id}/scan`, {
			key: keys.workspace,
			body: { phoneNumber: '+14155550170' },
		});
		const contact = await clients.workspace.contacts.create({
			instanceId: instance.id,
			body: { phoneNumber: '+14155550171', name: 'Grace' },
		});
		const link = await clients.shortLink.links.create(
			{ body: { url: 'https://example.com/kept', code: 'kept' } },
			{ idempotencyKey: 'link-kept' },
		);
		await raw(first.baseUrl, 'GET', '/kept', {
			headers: {
				'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/125.0 Safari/537.36',
			},
		});
		const hook = await clients.automation.webhooks.create({
			body: { url: `http://127.0.0.1:${receiverPort}/hook`, events: ['automation.*'] },
		});
		await clients.automation.events.publish({ body: { name: 'kept.event', payload: { n: 1 } } });
		const revoked = first.issueKey({ kind: 'shortLink', name: 'revoked before restart' });
		first.revokeKey(revoked.record.id);

		// The receiver is down: the delivery fails and waits for its retry.
		await waitFor(
			() =>
				first.store
					.all('deliveries', (delivery) => delivery.webhookId === hook.id && delivery.attempt >= 1)
					.at(0),
			3000,
			'a failed attempt',
		);
		await first.close();

		const text = readFileSync(dataFile, 'utf8');
		// A journal: JSON lines, each complete.
		expect(text.endsWith('\n')).toBe(true);
		for (const line of text.trimEnd().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
		for (const key of [...Object.values(keys), revoked.key]) expect(text).not.toContain(key);
		// Written through a temporary file and a rename: nothing is left beside it.
		expect(readdirSync(join(directory, 'nested'))).toEqual(['state.json']);

		const receiver = await startReceiver(receiverPort);
		receiver.secrets.push(hook.secret);
		const second = await startTestSandbox({
			dataFile,
			webhooks: { retryBaseMs: 200, maxRetryDelayMs: 400 },
		});
		try {
			// The keys are shown only when the workspace is created, never again.
			expect(second.keys).toBeUndefined();
			expect(second.workspaceId).toBe(first.workspaceId);
			clients = clientsFor(second.baseUrl, keys);

			await expect(
				clients.workspace.instances.get({ instanceId: instance.id }),
			).resolves.toMatchObject({
				status: 'connected',
				phoneNumber: '+14155550170',
			});
			await expect(
				clients.workspace.contacts.get({ instanceId: instance.id, contactId: contact.id }),
			).resolves.toMatchObject({ name: 'Grace' });
			await expect(clients.shortLink.links.get({ linkId: link.id })).resolves.toMatchObject({
				code: 'kept',
				clickCount: 1,
			});
			const clicks = await clients.shortLink.clicks.list({ linkId: link.id });
			expect(clicks.data).toEqual([
				expect.objectContaining({ browser: 'Chrome', device: 'desktop' }),
			]);
			expect((await raw(second.baseUrl, 'GET', '/kept')).status).toBe(302);
			await expect(clients.automation.webhooks.get({ webhookId: hook.id })).resolves.toMatchObject({
				status: 'active',
			});
			expect((await clients.automation.events.list()).data.map((event) => event.name)).toEqual([
				'kept.event',
			]);

			// The revoked key stays revoked; an idempotent create is still replayed.
			await expect(
				clientsFor(second.baseUrl, { ...keys, shortLink: revoked.key }).shortLink.links.list(),
			).rejects.toMatchObject({ status: 401 });
			const replay = await clients.shortLink.links.create(
				{ body: { url: 'https://example.com/kept', code: 'kept' } },
				{ idempotencyKey: 'link-kept' },
			);
			expect(replay.id).toBe(link.id);

			// The event that could not be delivered before the restart is delivered now, to the same signature secret.
			const delivery = await receiver.waitForEvent('automation.kept.event', () => true, 5000);
			expect(delivery.signature.valid).toBe(true);
			expect(delivery.attempt).toBeGreaterThanOrEqual(2);
		} finally {
			await second.close();
			await receiver.close();
		}
	});

	it.each([
		[
			'before keys:manage',
			['keys:manage', 'links:read', 'links:write', 'automation:read', 'automation:write'],
		],
		[
			'before keys granted only their own scopes',
			['links:read', 'links:write', 'automation:read', 'automation:write'],
		],
	])(
		'lets the full workspace keys of a data file written %s still manage every kind of key',
		async (era, dropped) => {
			const file = join(directory, `${era.replace(/\W+/g, '-')}.json`);
			const first = await startTestSandbox({ dataFile: file });
			const keys = first.keys as Keys;
			const reader = first.issueKey({ kind: 'workspace', scopes: ['messaging:read'] });
			// A data file of version 1 (the whole state in one JSON document), as it was written then.
			const document = first.store.toDocument(new Date());
			await first.close();
			for (const key of document.collections.keys) {
				key.scopes = key.scopes.filter((scope) => !dropped.includes(scope));
			}
			writeFileSync(file, JSON.stringify(document));

			const second = await startTestSandbox({ dataFile: file });
			try {
				const list = await raw(second.baseUrl, 'GET', '/user/api/keys', { key: keys.workspace });
				expect(list.status).toBe(200);
				const links = await raw(second.baseUrl, 'POST', '/user/api/keys', {
					key: keys.workspace,
					body: { name: 'links', kind: 'shortLink' },
				});
				expect(links.status).toBe(201);
				const narrow = await raw(second.baseUrl, 'GET', '/user/api/keys', { key: reader.key });
				expect(narrow.status).toBe(403);
			} finally {
				await second.close();
			}
		},
	);
});
