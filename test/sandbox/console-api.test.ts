/**
 * The web console's JSON endpoints at /user/api, over HTTP. The page itself, in headless chromium, is
 * tested in console.test.ts.
 */
import { createHash } from 'node:crypto';

import type { Sandbox } from '../../sandbox/server';
import { raw, startTestSandbox, type SandboxKeys } from '../support/sandbox';

describe('console JSON endpoints (/user/api/…)', () => {
	let sandbox: Sandbox;
	let keys: SandboxKeys;

	beforeAll(async () => {
		sandbox = await startTestSandbox();
		keys = sandbox.keys as SandboxKeys;
	});
	afterAll(() => sandbox.close());

	it('serves the page offline: inline script and style under a nonce CSP, nothing from another host', async () => {
		const page = await raw(sandbox.baseUrl, 'GET', '/user/api');
		expect(page.status).toBe(200);
		expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
		const csp = page.headers['content-security-policy'] ?? '';
		const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
		expect(nonce).toBeTruthy();
		expect(csp).toContain("default-src 'none'");
		const html = String(page.body);
		expect(html).toContain(`<script nonce="${nonce}">`);
		// Nothing loaded from elsewhere (the example URLs in the script are text, not loads).
		expect(html).not.toMatch(
			/<script[^>]+src=|<link\b|<img\b|@import|\burl\(|(?:src|href)="https?:/i,
		);
		expect((await raw(sandbox.baseUrl, 'GET', '/user/api/')).status).toBe(200);
		const post = await raw(sandbox.baseUrl, 'POST', '/user/api', { body: {} });
		expect(post.status).toBe(405);
	});

	it('needs an active key of the workspace (401 in the contract shape otherwise)', async () => {
		for (const key of [undefined, 'mcw_notarealkeynotarealkeynotareal1']) {
			const answer = await raw(sandbox.baseUrl, 'GET', '/user/api/keys', { key });
			expect(answer.status).toBe(401);
			expect(answer.headers['www-authenticate']).toBe('Bearer');
			expect(answer.body).toEqual({
				error: {
					code: 'unauthorized',
					message: expect.any(String),
					details: [],
					requestId: answer.headers['x-request-id'],
				},
			});
		}
		const session = await raw(sandbox.baseUrl, 'GET', '/user/api/session', { key: keys.shortLink });
		expect(session.status).toBe(200);
		expect(session.body).toMatchObject({
			workspace: { id: sandbox.workspaceId },
			key: { kind: 'shortLink', prefix: keys.shortLink.slice(0, 12) },
		});
	});

	it('issues a key of a chosen kind and scopes, shows it once and lists only its hash-free view', async () => {
		const created = await raw(sandbox.baseUrl, 'POST', '/user/api/keys', {
			key: keys.workspace,
			body: { name: 'Links reader', kind: 'shortLink', scopes: ['links:read'] },
		});
		expect(created.status).toBe(201);
		expect(created.headers['cache-control']).toBe('no-store');
		const { key, secret } = created.body as {
			key: Record<string, unknown>;
			secret: string;
		};
		expect(secret).toMatch(/^mcl_[A-Za-z0-9_-]{32}$/);
		expect(key).toEqual({
			id: expect.stringMatching(/^key_/),
			name: 'Links reader',
			kind: 'shortLink',
			prefix: secret.slice(0, 12),
			scopes: ['links:read'],
			createdAt: expect.any(String),
			lastUsedAt: null,
			revokedAt: null,
			status: 'active',
		});
		const list = await raw(sandbox.baseUrl, 'GET', '/user/api/keys', { key: keys.workspace });
		const text = JSON.stringify(list.body);
		expect(text).toContain(key.id as string);
		expect(text).not.toContain(secret);
		expect(text).not.toContain(createHash('sha256').update(secret).digest('hex'));
		expect(JSON.stringify(sandbox.store.toDocument(new Date()))).not.toContain(secret);

		// The scope works and is the only one: read yes, write no.
		expect((await raw(sandbox.baseUrl, 'GET', '/api/v1/links', { key: secret })).status).toBe(200);
		const write = await raw(sandbox.baseUrl, 'POST', '/api/v1/links', {
			key: secret,
			body: { url: 'https://example.com' },
		});
		expect(write.status).toBe(403);
	});

	it('lets only a key with keys:manage list, generate or revoke keys; any active key signs in', async () => {
		const seeded = sandbox.store.all(
			'keys',
			(key) => key.workspaceId === sandbox.workspaceId && key.kind === 'workspace',
		)[0];
		expect(seeded.scopes).toEqual([
			'messaging:read',
			'messaging:write',
			'keys:manage',
			'links:read',
			'links:write',
			'automation:read',
			'automation:write',
		]);
		const reader = sandbox.issueKey({ kind: 'shortLink', scopes: ['links:read'] }).key;
		for (const key of [reader, keys.shortLink, keys.automation]) {
			const session = await raw(sandbox.baseUrl, 'GET', '/user/api/session', { key });
			expect(session.status).toBe(200);
			expect(session.body).toMatchObject({ canManageKeys: false });
			const attempts = [
				await raw(sandbox.baseUrl, 'GET', '/user/api/keys', { key }),
				await raw(sandbox.baseUrl, 'POST', '/user/api/keys', {
					key,
					body: { name: 'escalated', kind: 'workspace' },
				}),
				await raw(sandbox.baseUrl, 'POST', `/user/api/keys/${seeded.id}/revoke`, { key }),
			];
			for (const answer of attempts) {
				expect(answer.status).toBe(403);
				expect(answer.body).toMatchObject({ error: { code: 'insufficient_scope' } });
			}
		}
		expect(seeded.revokedAt).toBeNull();
		expect(sandbox.store.all('keys', (key) => key.name === 'escalated')).toEqual([]);

		// A generated key has the API scopes of its kind unless keys:manage is asked for.
		const plain = await raw(sandbox.baseUrl, 'POST', '/user/api/keys', {
			key: keys.workspace,
			body: { name: 'plain', kind: 'workspace' },
		});
		expect(plain.body).toMatchObject({ key: { scopes: ['messaging:read', 'messaging:write'] } });
		const manager = await raw(sandbox.baseUrl, 'POST', '/user/api/keys', {
			key: keys.workspace,
			body: { name: 'manager', kind: 'workspace', scopes: ['keys:manage'] },
		});
		expect(manager.status).toBe(201);
		const managerSecret = (manager.body as { secret: string }).secret;
		const session = await raw(sandbox.baseUrl, 'GET', '/user/api/session', { key: managerSecret });
		expect(session.body).toMatchObject({ canManageKeys: true });
		const onlyLinks = await raw(sandbox.baseUrl, 'POST', '/user/api/keys', {
			key: keys.workspace,
			body: { name: 'x', kind: 'shortLink', scopes: ['keys:manage'] },
		});
		expect(onlyLinks.status).toBe(400);
	});

	it('lets a key grant only scopes it holds itself: 403 naming those it lacks, no key made', async () => {
		const narrow = sandbox.issueKey({
			kind: 'workspace',
			name: 'narrow manager',
			scopes: ['messaging:read', 'keys:manage'],
		}).key;
		const attempts: Array<[unknown, string[]]> = [
			[{ name: 'stronger', kind: 'workspace', scopes: ['messaging:write'] }, ['messaging:write']],
			[{ name: 'stronger', kind: 'workspace' }, ['messaging:write']],
			[{ name: 'stronger', kind: 'shortLink', scopes: ['links:read'] }, ['links:read']],
			[{ name: 'stronger', kind: 'automation' }, ['automation:read', 'automation:write']],
			[
				{ name: 'stronger', kind: 'workspace', scopes: ['keys:manage', 'links:write'] },
				['links:write'],
			],
		];
		for (const [body, lacking] of attempts) {
			const answer = await raw(sandbox.baseUrl, 'POST', '/user/api/keys', { key: narrow, body });
			expect([body, answer.status]).toEqual([body, 403]);
			expect(answer.body).toMatchObject({
				error: { code: 'insufficient_scope', details: [{ field: 'body.scopes' }] },
			});
			const message = (answer.body as { error: { message: string } }).error.message;
			expect(message).toContain(`lacks ${lacking.join(', ')}`);
		}
		expect(sandbox.store.all('keys', (key) => key.name === 'stronger')).toEqual([]);

		// What it holds, it may grant: keys:manage included, never more than itself.
		const granted = await raw(sandbox.baseUrl, 'POST', '/user/api/keys', {
			key: narrow,
			body: { name: 'reader', kind: 'workspace', scopes: ['messaging:read', 'keys:manage'] },
		});
		expect(granted.status).toBe(201);
		expect(granted.body).toMatchObject({ key: { scopes: ['messaging:read', 'keys:manage'] } });
		// The seeded key holds every scope, so it grants any kind's.
		const links = await raw(sandbox.baseUrl, 'POST', '/user/api/keys', {
			key: keys.workspace,
			body: { name: 'links', kind: 'shortLink', scopes: ['links:write'] },
		});
		expect(links.status).toBe(201);
	});

	it('rate limits console calls per key, with the API headers', async () => {
		const limited = await startTestSandbox({ rateLimit: { limit: 2, windowMs: 60_000 } });
		try {
			const key = (limited.keys as SandboxKeys).workspace;
			const first = await raw(limited.baseUrl, 'GET', '/user/api/session', { key });
			expect(first.headers['x-ratelimit-limit']).toBe('2');
			expect((await raw(limited.baseUrl, 'GET', '/user/api/keys', { key })).status).toBe(200);
			const third = await raw(limited.baseUrl, 'POST', '/user/api/keys', {
				key,
				body: { name: 'one too many', kind: 'automation' },
			});
			expect(third.status).toBe(429);
			expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
			expect(limited.store.all('keys', (record) => record.name === 'one too many')).toEqual([]);
		} finally {
			await limited.close();
		}
	});

	it('validates what it is sent, with the contract error body', async () => {
		const cases: Array<[unknown, string]> = [
			[{ name: '', kind: 'workspace' }, 'body.name'],
			[{ name: 'x', kind: 'admin' }, 'body.kind'],
			[{ name: 'x', kind: 'workspace', scopes: ['links:read'] }, 'body.scopes.0'],
			[{ name: 'x', kind: 'workspace', scopes: [] }, 'body.scopes'],
			[{ name: 'x', kind: 'workspace', extra: true }, 'body'],
		];
		for (const [body, field] of cases) {
			const answer = await raw(sandbox.baseUrl, 'POST', '/user/api/keys', {
				key: keys.workspace,
				body,
			});
			expect(answer.status).toBe(400);
			expect(answer.body).toMatchObject({
				error: {
					code: 'validation_failed',
					details: expect.arrayContaining([expect.objectContaining({ field })]),
				},
			});
		}
		const notJson = await raw(sandbox.baseUrl, 'POST', '/user/api/keys', {
			key: keys.workspace,
			body: '{',
		});
		expect(notJson.body).toMatchObject({ error: { code: 'invalid_json' } });
		const badId = await raw(sandbox.baseUrl, 'POST', '/user/api/keys/nope/revoke', {
			key: keys.workspace,
		});
		expect(badId.status).toBe(400);
		const wrongMethod = await raw(sandbox.baseUrl, 'DELETE', '/user/api/keys', {
			key: keys.workspace,
		});
		expect(wrongMethod.status).toBe(405);
		expect(wrongMethod.headers.allow).toBe('GET, POST');
		expect((await raw(sandbox.baseUrl, 'GET', '/user/api/nothing')).status).toBe(404);
	});

	it('isolates workspaces: another workspace neither sees nor revokes these keys (404)', async () => {
		const other = sandbox.createWorkspace('Other');
		const theirs = await raw(sandbox.baseUrl, 'GET', '/user/api/keys', {
			key: other.keys.workspace,
		});
		const ids = (theirs.body as { data: Array<{ id: string }> }).data.map((key) => key.id);
		expect(ids).toHaveLength(3);
		const ours = sandbox.store.all('keys', (key) => key.workspaceId === sandbox.workspaceId);
		for (const key of ours) expect(ids).not.toContain(key.id);

		const target = ours[0];
		const revoke = await raw(sandbox.baseUrl, 'POST', `/user/api/keys/${target.id}/revoke`, {
			key: other.keys.workspace,
		});
		expect(revoke.status).toBe(404);
		expect(revoke.body).toMatchObject({ error: { code: 'not_found' } });
		expect(target.revokedAt).toBeNull();
	});

	it("revokes: the next request with the key gets 401; a workspace's last key that can manage keys stays", async () => {
		const lone = sandbox.createWorkspace('Lone');
		const list = await raw(sandbox.baseUrl, 'GET', '/user/api/keys', { key: lone.keys.workspace });
		const [automation, shortLink, workspace] = (list.body as { data: Array<{ id: string }> }).data;
		for (const key of [automation, shortLink]) {
			const answer = await raw(sandbox.baseUrl, 'POST', `/user/api/keys/${key.id}/revoke`, {
				key: lone.keys.workspace,
			});
			expect(answer.status).toBe(200);
			expect(answer.body).toMatchObject({ id: key.id, status: 'revoked' });
		}
		const revoked = await raw(sandbox.baseUrl, 'GET', '/api/v1/links', {
			key: lone.keys.shortLink,
		});
		expect(revoked.status).toBe(401);
		// The last active key that can manage keys stays, even with another active key beside it.
		sandbox.issueKey({ workspaceId: lone.workspace.id, kind: 'automation' });
		const last = await raw(sandbox.baseUrl, 'POST', `/user/api/keys/${workspace.id}/revoke`, {
			key: lone.keys.workspace,
		});
		expect(last.status).toBe(409);
		expect(last.body).toMatchObject({ error: { code: 'last_active_key' } });
	});
});
