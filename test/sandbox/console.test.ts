/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- tests run in plain Node, never inside n8n, and run copied cURL commands in a shell */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { api } from '../../src/client/api';
import type { Operation } from '../../src/client/operation';
import type { Sandbox } from '../../sandbox/server';
import {
	Browser,
	CHROMIUM_PATH,
	chromiumAvailable,
	type BrowserPage,
} from '../../dev/browser/chromium';
import { consoleReady, raw, startTestSandbox } from '../support/sandbox';

/**
 * The web console at /user/api: its JSON endpoints over HTTP, then the page itself in Debian's headless
 * chromium driven by Playwright (create a key, see it once, copy and run a cURL command,
 * revoke the key).
 */

type Keys = NonNullable<Sandbox['keys']>;

function operationById(id: string): Operation | undefined {
	const [surface, resource, name] = id.split('.');
	const resources = (api as unknown as Record<string, Record<string, Record<string, Operation>>>)[
		surface
	];
	return resources?.[resource]?.[name];
}

/** Runs a copied command the way a user would: pasted into a shell. Bounded by `timeoutMs`. */
function runInShell(
	command: string,
	timeoutMs = 15_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
	return new Promise((resolve, reject) => {
		const child = spawn('sh', ['-c', command], { stdio: ['ignore', 'pipe', 'pipe'] });
		let stdout = '';
		let stderr = '';
		child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
		child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
		const timer = setTimeout(() => {
			child.kill('SIGKILL');
			reject(new Error(`the command did not finish within ${timeoutMs} ms: ${command}`));
		}, timeoutMs);
		child.once('error', (error) => {
			clearTimeout(timer);
			reject(error);
		});
		child.once('close', (code) => {
			clearTimeout(timer);
			resolve({ code, stdout, stderr });
		});
	});
}

describe('console JSON endpoints (/user/api/…)', () => {
	let sandbox: Sandbox;
	let keys: Keys;

	beforeAll(async () => {
		sandbox = await startTestSandbox();
		keys = sandbox.keys as Keys;
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
		expect(seeded.scopes).toEqual(['messaging:read', 'messaging:write', 'keys:manage']);
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

	it('rate limits console calls per key, with the API headers', async () => {
		const limited = await startTestSandbox({ rateLimit: { limit: 2, windowMs: 60_000 } });
		try {
			const key = (limited.keys as Keys).workspace;
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

const inCi = Boolean(process.env.CI);
const haveChromium = chromiumAvailable();
if (!haveChromium && !inCi) {
	// A visible note rather than a silent pass: the browser part needs Debian's chromium.
	process.stderr.write(
		`SKIPPED: the console's browser test needs chromium at ${CHROMIUM_PATH} ` +
			'(apt-get install -y chromium, or set CHROMIUM_PATH); CI installs it and fails without it.\n',
	);
}

(haveChromium || inCi ? describe : describe.skip)('console in headless chromium', () => {
	let sandbox: Sandbox;
	let keys: Keys;
	let browser: Browser | undefined;
	let page: BrowserPage;
	let consoleUrl: string;

	beforeAll(async () => {
		if (!haveChromium) {
			throw new Error(
				`chromium is not installed at ${CHROMIUM_PATH}: CI must install it (apt-get install -y --no-install-recommends chromium)`,
			);
		}
		sandbox = await startTestSandbox();
		keys = sandbox.keys as Keys;
		consoleUrl = `${sandbox.baseUrl}/user/api`;
		browser = await Browser.launch({ timeoutMs: 30_000 });
		page = await browser.newPage();
		// Playwright emulates focus in headless pages already; the copy button reads the clipboard back.
		await page.playwright
			.context()
			.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: sandbox.baseUrl });
	}, 60_000);

	afterAll(async () => {
		await browser?.close();
		await sandbox?.close();
	}, 30_000);

	const text = (selector: string) => page.text(selector);
	const visible = (selector: string) =>
		page.evaluate<boolean>(
			`(() => { const node = document.querySelector(${JSON.stringify(selector)}); return Boolean(node && !node.closest('[hidden]')); })()`,
		);
	const ready = () => consoleReady(page);

	let secret = '';
	let secretKeyId = '';

	it('signs in with a workspace key (a wrong key is refused on the page)', async () => {
		await page.goto(consoleUrl);
		await ready();
		expect(await visible('#signin')).toBe(true);
		expect(await visible('#keys')).toBe(false);

		await page.type('#signin-key', 'mcw_notarealkeynotarealkeynotareal1');
		await page.click('#signin-submit');
		await page.waitFor(`!document.getElementById('signin-error').hidden`, { what: 'the error' });
		expect(await text('#signin-error')).toBe('The API key is not valid');

		await page.type('#signin-key', keys.workspace);
		await page.click('#signin-submit');
		await page.waitFor(`document.querySelectorAll('#keys-body tr').length === 3`, {
			what: 'the three seeded keys',
		});
		expect(await visible('#signin')).toBe(false);
		expect(await text('#workspace-name')).toContain(sandbox.workspaceId);
	});

	it('generates a key of a chosen kind and scope and shows its secret once', async () => {
		await page.type('#create-name', 'Reporting (read only)');
		await page.evaluate(
			`(() => { const kind = document.getElementById('create-kind'); kind.value = 'workspace';
				kind.dispatchEvent(new Event('change')); })()`,
		);
		await page.click('#create-scopes input[value="messaging:write"]');
		expect(
			await page.evaluate(
				`[...document.querySelectorAll('#create-scopes input:checked')].map((input) => input.value)`,
			),
		).toEqual(['messaging:read']);
		await page.click('#create-submit');
		await page.waitFor(`!document.getElementById('secret-panel').hidden`, {
			what: 'the new secret',
		});
		secret = (await text('#secret-value')) ?? '';
		expect(secret).toMatch(/^mcw_[A-Za-z0-9_-]{32}$/);

		const row = await page.waitFor<{
			id: string;
			cells: Record<string, string>;
		}>(
			`(() => { const row = document.querySelector('#keys-body tr'); if (!row || document.querySelectorAll('#keys-body tr').length !== 4) return null;
				const cells = {}; for (const cell of row.querySelectorAll('td[class]')) cells[cell.className.split(' ')[0]] = cell.textContent;
				return { id: row.getAttribute('data-key-id'), cells }; })()`,
			{ what: 'the new key in the list' },
		);
		secretKeyId = row.id;
		expect(row.cells).toMatchObject({
			name: 'Reporting (read only)',
			prefix: `${secret.slice(0, 12)}…`,
			kind: 'Workspace',
			scopes: 'messaging:read',
			'last-used': 'never',
			status: 'active',
		});
		expect(row.cells.created).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/);

		// Stored hashed only.
		const record = sandbox.store.get('keys', secretKeyId);
		expect(record?.hash).toBe(createHash('sha256').update(secret).digest('hex'));
		expect(JSON.stringify(sandbox.store.toDocument(new Date()))).not.toContain(secret);

		// The page is worth a look: key list, the secret panel and one endpoint opened.
		await page.click('#secret-use');
		await page.evaluate(
			`document.querySelector('[data-operation-id="workspace.models.list"]').open = true`,
		);
		const screenshot = process.env.CONSOLE_SCREENSHOT ?? join(tmpdir(), 'multichannel-console.png');
		await page.evaluate('window.scrollTo(0, 0)');
		await page.screenshot(screenshot);
		process.stdout.write(`console screenshot: ${screenshot}\n`);
	});

	it('does not show the secret again after a reload', async () => {
		await page.reload();
		await ready();
		await page.waitFor(`document.querySelectorAll('#keys-body tr').length === 4`, {
			what: 'the key list after the reload',
		});
		expect(await visible('#secret-panel')).toBe(false);
		expect(await text('#secret-value')).toBe('');
		expect(await page.evaluate(`document.getElementById('ref-key').value`)).toBe('');
		expect(await page.evaluate<string>('document.documentElement.outerHTML')).not.toContain(secret);
		expect(
			await page.evaluate<string>(`JSON.stringify(Object.assign({}, sessionStorage))`),
		).not.toContain(secret);
	});

	it('renders the reference from the OpenAPI document, grouped by tag, with parameters', async () => {
		const summary = await page.evaluate<{ tags: string[]; operations: number; params: string[] }>(
			`(() => ({
				tags: [...document.querySelectorAll('#reference-body section.tag')].map((s) => s.getAttribute('data-tag')),
				operations: document.querySelectorAll('#reference-body details.op').length,
				params: [...document.querySelectorAll('[data-operation-id="workspace.instances.list"] table.params tbody tr td:first-child')].map((c) => c.textContent),
			}))()`,
		);
		const document = (await raw(sandbox.baseUrl, 'GET', '/api/v1/openapi.json')).body as {
			paths: Record<string, Record<string, { security?: unknown }>>;
		};
		const withKey = Object.values(document.paths).flatMap((item) =>
			Object.values(item).filter((operation) => operation.security),
		);
		expect(summary.operations).toBe(withKey.length);
		expect(summary.tags).toEqual(
			expect.arrayContaining(['Models', 'Instances', 'Short link links']),
		);
		expect(summary.params).toEqual(['limit', 'cursor']);
	});

	it('builds example bodies the contract accepts, for every operation with a body', async () => {
		const bodies = await page.evaluate<
			Record<string, { type: 'json' | 'multipart'; value: Record<string, unknown> }>
		>('window.multichannelConsole.exampleBodies()');
		expect(Object.keys(bodies).length).toBeGreaterThan(20);
		for (const [id, body] of Object.entries(bodies)) {
			const operation = operationById(id);
			expect(operation?.body).toBeDefined();
			const fields = Object.fromEntries(
				Object.entries(body.value).filter(([name]) => name !== 'file'),
			);
			const checked = operation!.body!.safeParse(body.type === 'json' ? body.value : fields);
			if (!checked.success) throw new Error(`${id}: ${checked.error.message}`);
		}
	});

	it('copies a cURL command from the reference that runs against the sandbox', async () => {
		await page.type('#ref-key', secret);
		const operation = '[data-operation-id="workspace.models.list"]';
		await page.evaluate(`document.querySelector('${operation}').open = true`);
		await page.click(`${operation} button.copy`);
		await page.waitFor(
			`document.querySelector('${operation} button.copy').textContent === 'Copied'`,
			{
				what: 'the copy confirmation',
			},
		);
		const copied = await page.evaluate<string>('navigator.clipboard.readText()');
		expect(copied).toBe(await text(`${operation} pre.curl`));
		expect(copied).toContain(`Authorization: Bearer ${secret}`);
		expect(copied).toContain('Accept: application/json');
		expect(copied).toContain(`${sandbox.baseUrl}/api/v1/models`);

		const run = await runInShell(`${copied} --silent --show-error --write-out '\\n%{http_code}'`);
		expect(run.stderr).toBe('');
		const [body, status] = run.stdout.split(/\n(?=\d{3}$)/);
		expect(status).toBe('200');
		expect(JSON.parse(body)).toMatchObject({ object: 'list', data: expect.any(Array) });

		// The list now shows when the key was last used.
		await page.reload();
		await ready();
		const lastUsed = await page.waitFor<string>(
			`document.querySelector('#keys-body tr[data-key-id="${secretKeyId}"] td.last-used')?.textContent`,
			{ what: 'the key row' },
		);
		expect(lastUsed).toMatch(/UTC$/);
	});

	it('builds a ready-to-run POST with its example JSON body', async () => {
		await page.type('#ref-key', keys.workspace);
		const command = await page.waitFor<string>(
			`(() => { const text = document.querySelector('[data-operation-id="workspace.instances.create"] pre.curl').textContent;
				return text.includes(${JSON.stringify(keys.workspace)}) && text; })()`,
			{ what: 'the cURL command with the pasted key' },
		);
		expect(command).toContain("curl -X POST '");
		expect(command).toContain("-H 'Content-Type: application/json'");
		const run = await runInShell(`${command} --silent --show-error --write-out '\\n%{http_code}'`);
		const [body, status] = run.stdout.split(/\n(?=\d{3}$)/);
		expect(status).toBe('201');
		expect(JSON.parse(body)).toMatchObject({ id: expect.any(String), status: 'created' });

		// A path parameter filled in on the page goes into the command.
		const instanceId = (JSON.parse(body) as { id: string }).id;
		const get = '[data-operation-id="workspace.instances.get"]';
		await page.evaluate(`document.querySelector('${get}').open = true`);
		await page.type(`${get} input[data-param="instanceId"]`, instanceId);
		const getCommand = await page.waitFor<string>(
			`(() => { const text = document.querySelector('${get} pre.curl').textContent; return text.includes('${instanceId}') && text; })()`,
			{ what: 'the path parameter in the command' },
		);
		const fetched = await runInShell(`${getCommand} --silent --show-error`);
		expect(JSON.parse(fetched.stdout)).toMatchObject({ id: instanceId });
	});

	it('revokes the key from the list; the next request with it gets 401', async () => {
		const button = `#keys-body tr[data-key-id="${secretKeyId}"] button.revoke`;
		await page.click(button);
		expect(await text(button)).toBe('Confirm revoke');
		await page.click(button);
		await page.waitFor(
			`document.querySelector('#keys-body tr[data-key-id="${secretKeyId}"] td.status')?.textContent === 'revoked'`,
			{ what: 'the key to show as revoked' },
		);
		expect(await text('#notice')).toContain('revoked');
		expect(sandbox.store.get('keys', secretKeyId)?.revokedAt).toEqual(expect.any(String));

		const answer = await raw(sandbox.baseUrl, 'GET', '/api/v1/models', { key: secret });
		expect(answer.status).toBe(401);
		expect(answer.body).toMatchObject({ error: { code: 'unauthorized' } });
	});

	it('signs in with a key that cannot manage keys: no key list, a note naming keys:manage', async () => {
		await page.click('#signout');
		await page.type('#signin-key', keys.shortLink);
		await page.click('#signin-submit');
		await page.waitFor(`!document.getElementById('who').hidden`, { what: 'the signed-in header' });
		expect(await visible('#keys')).toBe(false);
		expect(await text('#notice')).toContain('keys:manage');
		expect(await page.evaluate<number>(`document.querySelectorAll('#keys-body tr').length`)).toBe(
			0,
		);
	});
});
