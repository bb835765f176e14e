import { createHash } from 'node:crypto';

import { AuthenticationError, NotFoundError, PermissionDeniedError } from '../../src/client';
import type { Sandbox } from '../../sandbox/server';
import { clientsFor, raw, startTestSandbox } from '../support/sandbox';

describe('sandbox API keys', () => {
	let sandbox: Sandbox;
	let keys: NonNullable<Sandbox['keys']>;
	let clients: ReturnType<typeof clientsFor>;

	beforeAll(async () => {
		sandbox = await startTestSandbox();
		keys = sandbox.keys as NonNullable<Sandbox['keys']>;
		clients = clientsFor(sandbox.baseUrl, keys);
	});
	afterAll(() => sandbox.close());

	it('seeds one key of each kind, with the prefixes the client redacts', () => {
		expect(keys.workspace).toMatch(/^mcw_[A-Za-z0-9_-]{32}$/);
		expect(keys.shortLink).toMatch(/^mcl_[A-Za-z0-9_-]{32}$/);
		expect(keys.automation).toMatch(/^mca_[A-Za-z0-9_-]{32}$/);
	});

	it('names the seeded keys as people write their kinds, as the console lists them', async () => {
		const listed = await raw(sandbox.baseUrl, 'GET', '/user/api/keys', { key: keys.workspace });
		const names = (listed.body as { data: Array<{ name: string }> }).data.map((key) => key.name);
		expect(names.sort()).toEqual([
			'Default automation key',
			'Default short-link key',
			'Default workspace key',
		]);
	});

	it('stores only a sha256 of each key, never the key itself', () => {
		const state = JSON.stringify(sandbox.store.toDocument(new Date()));
		for (const key of Object.values(keys)) {
			expect(state).not.toContain(key);
			expect(state).toContain(createHash('sha256').update(key).digest('hex'));
		}
		const records = sandbox.store.all('keys');
		expect(records.map((record) => record.prefix)).toEqual(
			Object.values(keys).map((key) => key.slice(0, 12)),
		);
	});

	it('answers 401 in the contract error shape without a key, with an unknown key, and with a revoked key', async () => {
		const missing = await raw(sandbox.baseUrl, 'GET', '/api/v1/models');
		expect(missing.status).toBe(401);
		expect(missing.headers['www-authenticate']).toBe('Bearer');
		expect(missing.body).toEqual({
			error: {
				code: 'unauthorized',
				message: expect.stringContaining('Authorization'),
				details: [],
				requestId: missing.headers['x-request-id'],
			},
		});

		const unknown = clientsFor(sandbox.baseUrl, {
			...keys,
			workspace: 'mcw_notarealkeynotarealkeynotareal1',
		});
		await expect(unknown.workspace.models.list()).rejects.toMatchObject({
			status: 401,
			code: 'unauthorized',
		});

		const issued = sandbox.issueKey({ kind: 'workspace', name: 'to revoke' });
		const client = clientsFor(sandbox.baseUrl, { ...keys, workspace: issued.key }).workspace;
		await expect(client.models.list()).resolves.toMatchObject({ object: 'list' });
		expect(sandbox.store.get('keys', issued.record.id)?.lastUsedAt).not.toBeNull();
		sandbox.revokeKey(issued.record.id);
		const revoked = client.models.list();
		await expect(revoked).rejects.toBeInstanceOf(AuthenticationError);
		await expect(revoked).rejects.toThrow(/revoked/);
		// The other keys of the workspace still work.
		await expect(clients.workspace.models.list()).resolves.toMatchObject({ object: 'list' });
	});

	it('answers 403 to a key of another kind', async () => {
		const wrongKind = clientsFor(sandbox.baseUrl, { ...keys, workspace: keys.shortLink }).workspace;
		const call = wrongKind.instances.list();
		await expect(call).rejects.toBeInstanceOf(PermissionDeniedError);
		await expect(call).rejects.toMatchObject({ status: 403, code: 'wrong_key_kind' });
		const automationOnLinks = clientsFor(sandbox.baseUrl, {
			...keys,
			shortLink: keys.automation,
		}).shortLink;
		await expect(automationOnLinks.links.list()).rejects.toMatchObject({
			status: 403,
			code: 'wrong_key_kind',
		});
	});

	it('answers 403 to a key without the scope, and lets it do what its scope allows', async () => {
		const readOnly = sandbox.issueKey({ kind: 'workspace', scopes: ['messaging:read'] });
		const client = clientsFor(sandbox.baseUrl, { ...keys, workspace: readOnly.key }).workspace;
		await expect(client.instances.list()).resolves.toMatchObject({ data: expect.any(Array) });
		const write = client.instances.create({ body: { name: 'not allowed' } });
		await expect(write).rejects.toMatchObject({ status: 403, code: 'insufficient_scope' });
		await expect(write).rejects.toThrow(/messaging:write/);
		expect(sandbox.store.all('instances')).toHaveLength(0);
	});

	it('keeps workspaces apart: another workspace’s ids are 404 and never listed', async () => {
		const other = sandbox.createWorkspace('Other');
		const theirs = clientsFor(sandbox.baseUrl, other.keys);
		const instance = await theirs.workspace.instances.create({ body: { name: 'theirs' } });
		const link = await theirs.shortLink.links.create({
			body: { url: 'https://example.com/theirs' },
		});
		const webhook = await theirs.automation.webhooks.create({
			body: { url: 'https://example.com/hook', events: ['*'] },
		});

		await expect(
			clients.workspace.instances.get({ instanceId: instance.id }),
		).rejects.toBeInstanceOf(NotFoundError);
		await expect(
			clients.workspace.instances.delete({ instanceId: instance.id }),
		).rejects.toMatchObject({ status: 404 });
		await expect(clients.shortLink.links.get({ linkId: link.id })).rejects.toMatchObject({
			status: 404,
			code: 'not_found',
		});
		await expect(clients.shortLink.clicks.list({ linkId: link.id })).rejects.toMatchObject({
			status: 404,
		});
		await expect(clients.automation.webhooks.get({ webhookId: webhook.id })).rejects.toMatchObject({
			status: 404,
		});
		expect((await clients.workspace.instances.list()).data.map((item) => item.id)).not.toContain(
			instance.id,
		);
		expect((await clients.shortLink.links.list()).data.map((item) => item.id)).not.toContain(
			link.id,
		);

		// Their own key still sees their things.
		await expect(
			theirs.workspace.instances.get({ instanceId: instance.id }),
		).resolves.toMatchObject({ id: instance.id });
		// A key of one workspace cannot be revoked through another.
		expect(
			sandbox.revokeKey(
				sandbox.store.all('keys', (key) => key.workspaceId === other.workspace.id)[0].id,
			),
		).toBeUndefined();
	});
});
