/* eslint-disable @n8n/community-nodes/no-restricted-globals -- tests run in plain Node, never inside n8n */
/**
 * The console's key list in headless chromium, beyond console.test.ts: the "shown once" panel goes when its key
 * is revoked.
 */
import { chromiumAvailable } from '../../dev/browser/chromium';
import { consoleInBrowser, signInToConsole, type SandboxKeys } from '../support/sandbox';

(chromiumAvailable() || process.env.CI ? describe : describe.skip)('console: key list', () => {
	const session = consoleInBrowser();

	/** Signs in afresh and generates a key named `name`; its secret shows in the panel. */
	async function generated(name: string): Promise<{ id: string; secret: string }> {
		const { sandbox, page } = session;
		await signInToConsole(page, sandbox.baseUrl, (sandbox.keys as SandboxKeys).workspace);
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
});
