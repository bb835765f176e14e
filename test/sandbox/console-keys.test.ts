/* eslint-disable @n8n/community-nodes/no-restricted-globals -- tests run in plain Node, never inside n8n */
/**
 * The console's key list in headless chromium, beyond console.test.ts: the "shown once" panel goes when its key
 * is revoked, and "last used" follows the keys' use without a reload.
 */
import { chromiumAvailable } from '../../dev/browser/chromium';
import { consoleInBrowser, raw, signInToConsole, type SandboxKeys } from '../support/sandbox';

(chromiumAvailable() || process.env.CI ? describe : describe.skip)('console: key list', () => {
	const session = consoleInBrowser();
	const keys = () => session.sandbox.keys as SandboxKeys;

	/** The "Last used" cell of a key's row, once it shows a time. */
	const lastUsedShown = (keyId: string, what: string) =>
		session.page.waitFor<string>(
			`(() => { const text = document.querySelector('#keys-body tr[data-key-id="${keyId}"] td.last-used')?.textContent; return text !== 'never' && text; })()`,
			{ what },
		);
	const lastUsedCell = (keyId: string) =>
		session.page.text(`#keys-body tr[data-key-id="${keyId}"] td.last-used`);
	/** A key's last use as the list shows it, from the store. */
	const lastUsedOf = (keyId: string) =>
		`${session.sandbox.store.get('keys', keyId)?.lastUsedAt?.slice(0, 16).replace('T', ' ')} UTC`;
	const seededKey = (kind: 'shortLink' | 'automation') =>
		session.sandbox.store.all('keys', (candidate) => candidate.kind === kind)[0];

	/**
	 * Signs in afresh with a new key that manages keys, and waits until the list shows it used: signing in does not
	 * count, the instance picker's API call does; so the list has been reloaded after that call, and no reload is
	 * still due when this returns.
	 */
	async function signedIn(name: string): Promise<string> {
		const { sandbox, page } = session;
		const { key, record } = sandbox.issueKey({
			kind: 'workspace',
			name,
			scopes: ['messaging:read', 'messaging:write', 'keys:manage'],
		});
		await signInToConsole(page, sandbox.baseUrl, key);
		expect(await lastUsedShown(record.id, "the console's own call")).toBe(lastUsedOf(record.id));
		return record.id;
	}

	/** Signs in afresh and generates a key named `name`; its secret shows in the panel. */
	async function generated(name: string): Promise<{ id: string; secret: string }> {
		const { page } = session;
		await signedIn(`Signed in to generate ${name}`);
		await page.type('#create-name', name);
		await page.click('#create-submit');
		await page.waitFor(`!document.getElementById('secret-panel').hidden`, { what: 'the secret' });
		const secret = (await page.text('#secret-value')) ?? '';
		const id = await page.waitFor<string>(
			`[...document.querySelectorAll('#keys-body tr')].find((row) => row.querySelector('td.name').textContent === ${JSON.stringify(name)})?.getAttribute('data-key-id')`,
			{ what: 'the new key in the list' },
		);
		return { id, secret };
	}

	const panelShows = () =>
		session.page.evaluate<{ hidden: boolean; text: string }>(
			`({ hidden: document.getElementById('secret-panel').hidden, text: document.getElementById('secret-panel').textContent })`,
		);

	it("shows the signed-in key's use by the console's own API calls without a reload", async () => {
		await signedIn('Used by the console');
	});

	it('clears the "shown once" panel when its key is revoked in the list', async () => {
		const { page } = session;
		const { id, secret } = await generated('Revoked at once');
		expect(secret).toMatch(/^mcw_/);
		expect((await panelShows()).text).toContain(secret);

		const button = `#keys-body tr[data-key-id="${id}"] button.revoke`;
		await page.click(button);
		await page.click(button);
		await page.waitFor(
			`document.querySelector('#keys-body tr[data-key-id="${id}"] td.status')?.textContent === 'revoked'`,
			{ what: 'the key to show as revoked' },
		);
		expect(await panelShows()).toEqual({ hidden: true, text: expect.not.stringContaining(secret) });
		expect(await page.evaluate<string>('document.body.textContent')).not.toContain(secret);
	});

	it('clears the panel when the list, reloaded on focus, finds its key revoked elsewhere', async () => {
		const { sandbox, page } = session;
		const { id, secret } = await generated('Revoked elsewhere');
		const revoked = await raw(sandbox.baseUrl, 'POST', `/user/api/keys/${id}/revoke`, {
			key: keys().workspace,
		});
		expect(revoked.status).toBe(200);
		expect((await panelShows()).hidden).toBe(false);

		await page.evaluate(`window.dispatchEvent(new Event('focus'))`);
		await page.waitFor(`document.getElementById('secret-panel').hidden`, {
			what: 'the panel to go',
		});
		expect((await panelShows()).text).not.toContain(secret);
		expect(await page.text(`#keys-body tr[data-key-id="${id}"] td.status`)).toBe('revoked');
	});

	it('shows a use elsewhere (a copied cURL command run in a shell) when the tab gets the focus again', async () => {
		const { sandbox, page } = session;
		await signedIn('Signed in to watch the automation key');
		const automationKey = seededKey('automation');
		expect(await lastUsedCell(automationKey.id)).toBe('never');

		const used = await raw(sandbox.baseUrl, 'GET', '/api/v1/automation/events', {
			key: keys().automation,
		});
		expect(used.status).toBe(200);
		await page.evaluate(`window.dispatchEvent(new Event('focus'))`);
		expect(await lastUsedShown(automationKey.id, 'the use, on focus')).toBe(
			lastUsedOf(automationKey.id),
		);
	});

	it('lays the key-creation form out readably at 1280 and at 800 px wide', async () => {
		const { page } = session;
		await signedIn('Signed in to look at the form');
		for (const width of [1280, 800]) {
			await page.setViewport(width, 800);
			const layout = await page.evaluate<{
				form: { left: number; right: number };
				name: number;
				kind: number;
				boxes: Array<{ left: number; right: number; top: number; bottom: number }>;
			}>(`(() => {
				const rect = (node) => { const { left, right, top, bottom, width } = node.getBoundingClientRect(); return { left, right, top, bottom, width }; };
				return {
					form: rect(document.getElementById('create-form')),
					name: rect(document.getElementById('create-name')).width,
					kind: rect(document.getElementById('create-kind')).width,
					boxes: ['#create-name', '#create-kind', '#create-submit', '#create-scopes label'].flatMap((selector) => [...document.querySelectorAll(selector)].map(rect)),
				};
			})()`);
			// Room to read a name and the longest kind ("Workspace (models, messaging)").
			expect({ width, name: layout.name >= 250, kind: layout.kind >= 270 }).toEqual({
				width,
				name: true,
				kind: true,
			});
			// Every field, scope and the button inside the form, none over another.
			for (const [index, box] of layout.boxes.entries()) {
				expect(box.left).toBeGreaterThanOrEqual(layout.form.left);
				expect(box.right).toBeLessThanOrEqual(layout.form.right);
				for (const other of layout.boxes.slice(index + 1)) {
					const apart =
						box.right <= other.left ||
						other.right <= box.left ||
						box.bottom <= other.top ||
						other.bottom <= box.top;
					expect({ width, box, other, apart }).toEqual({ width, box, other, apart: true });
				}
			}
		}
		await page.setViewport(1280, 900);
	});

	// Last: the page's clock stays installed.
	it('shows a use elsewhere within 30 s, with no focus', async () => {
		const { sandbox, page } = session;
		await page.playwright.clock.install();
		await signedIn('Signed in to watch the short-link key');
		const shortLinkKey = seededKey('shortLink');
		expect(await lastUsedCell(shortLinkKey.id)).toBe('never');

		const used = await raw(sandbox.baseUrl, 'GET', '/api/v1/links', { key: keys().shortLink });
		expect(used.status).toBe(200);
		await page.playwright.clock.runFor(20_000);
		await page.playwright.waitForTimeout(300);
		expect(await lastUsedCell(shortLinkKey.id)).toBe('never');
		await page.playwright.clock.runFor(11_000);
		expect(await lastUsedShown(shortLinkKey.id, 'the use, after 30 s')).toBe(
			lastUsedOf(shortLinkKey.id),
		);
	});
});
