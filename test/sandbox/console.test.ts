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
import { consoleReady, raw, startTestSandbox, type SandboxKeys } from '../support/sandbox';

/**
 * The web console at /user/api in Debian's headless chromium driven by Playwright (create a key, see it
 * once, copy and run a cURL command, revoke the key). Its JSON endpoints are tested in console-api.test.ts.
 */

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
	let keys: SandboxKeys;
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
		keys = sandbox.keys as SandboxKeys;
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
		const summary = await page.evaluate<{
			tags: string[];
			operations: number;
			params: string[];
			descriptions: string[];
		}>(
			`(() => ({
				tags: [...document.querySelectorAll('#reference-body section.tag')].map((s) => s.getAttribute('data-tag')),
				operations: document.querySelectorAll('#reference-body details.op').length,
				params: [...document.querySelectorAll('[data-operation-id="workspace.messages.list"] table.params tbody tr td:first-child')].map((c) => c.textContent),
				descriptions: [...document.querySelectorAll('[data-operation-id="workspace.messages.list"] table.params tbody tr td.description')].map((c) => c.textContent),
			}))()`,
		);
		const document = (await raw(sandbox.baseUrl, 'GET', '/api/v1/openapi.json')).body as {
			paths: Record<
				string,
				Record<
					string,
					{ security?: unknown; parameters?: Array<{ name: string; description?: string }> }
				>
			>;
		};
		const withKey = Object.values(document.paths).flatMap((item) =>
			Object.values(item).filter((operation) => operation.security),
		);
		expect(summary.operations).toBe(withKey.length);
		expect(summary.tags).toEqual(
			expect.arrayContaining(['Models', 'Instances', 'Short link links']),
		);
		// Each parameter with its description, as the document says it (code spans without their backticks).
		const parameters =
			document.paths['/api/v1/instances/{instanceId}/messages'].get.parameters ?? [];
		expect(summary.params).toEqual(parameters.map((parameter) => parameter.name));
		expect(summary.params).toEqual([
			'instanceId',
			'limit',
			'cursor',
			'chatId',
			'direction',
			'since',
			'until',
			'order',
		]);
		expect(summary.descriptions).toEqual(
			parameters.map((parameter) => (parameter.description ?? '').replace(/`/g, '')),
		);
		expect(summary.descriptions.slice(0, 3)).toEqual([
			'ID of the instance',
			'Page size, 1–100 (default 20)',
			expect.stringMatching(/^nextCursor of the previous page/),
		]);
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
		// On screen the key is masked, in its field and in the command; the copied command carries it in full.
		const masked = `${secret.slice(0, 12)}••••••••`;
		const shown = (await text(`${operation} pre.curl`)) ?? '';
		expect(await page.evaluate(`document.getElementById('ref-key').type`)).toBe('password');
		expect(shown).not.toContain(secret);
		expect(shown).toContain(`Authorization: Bearer ${masked}`);
		expect(copied).toBe(shown.replace(masked, secret));
		expect(copied).toContain(`Authorization: Bearer ${secret}`);
		expect(copied).toContain('Accept: application/json');
		expect(copied).toContain(`${sandbox.baseUrl}/api/v1/models`);

		const run = await runInShell(`${copied} --silent --show-error --write-out '\\n%{http_code}'`);
		expect(run.stderr).toBe('');
		const [body, status] = run.stdout.split(/\n(?=\d{3}$)/);
		expect(status).toBe('200');
		expect(JSON.parse(body)).toMatchObject({ object: 'list', data: expect.any(Array) });

		// Show puts the key in clear, in the field and the command; Hide masks both again.
		await page.click('#ref-key-show');
		expect(await page.evaluate(`document.getElementById('ref-key').type`)).toBe('text');
		expect(await text('#ref-key-show')).toBe('Hide');
		expect(await text(`${operation} pre.curl`)).toBe(copied);
		await page.click('#ref-key-show');
		expect(await page.evaluate(`document.getElementById('ref-key').type`)).toBe('password');
		expect(await text(`${operation} pre.curl`)).toBe(shown);

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
		await page.click('#ref-key-show');
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

	it('a key list still on its way at a sign-out is not put back for the next key', async () => {
		await page.click('#signout');
		await page.type('#signin-key', keys.workspace);
		await page.click('#signin-submit');
		await page.waitFor(`document.querySelectorAll('#keys-body tr').length > 0`, {
			what: "the workspace's key list",
		});
		// The next key list is held until the next key has signed in (a refresh asks for it); read, it is dealt with.
		await page.evaluate(`(() => {
			const real = window.fetch;
			window.fetch = (input, init) => {
				if (!String(input).endsWith('/user/api/keys')) return real(input, init);
				[window.fetch, window.keysAsked] = [real, true];
				return real(input, init).then((response) => new Promise((resolve) => {
					response.text = () => Response.prototype.text.call(response).then((body) => ((window.keysRead = true), body));
					window.answerKeys = () => resolve(response);
				}));
			};
			window.dispatchEvent(new Event('focus'));
		})()`);
		await page.waitFor(`window.keysAsked === true`, { what: 'the refresh asking for the keys' });
		await page.click('#signout');
		await page.type('#signin-key', keys.shortLink);
		await page.click('#signin-submit');
		await page.waitFor(`!document.getElementById('who').hidden`, { what: 'the signed-in header' });
		await page.evaluate(`window.answerKeys()`);
		await page.waitFor(`window.keysRead === true`, { what: 'the late key list read' });
		expect(await page.evaluate(`document.querySelectorAll('#keys-body tr').length`)).toBe(0);
	});
});
