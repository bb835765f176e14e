/* eslint-disable @n8n/community-nodes/no-restricted-globals -- tests run in plain Node, never inside n8n */
import type { Sandbox } from '../../sandbox/server';
import { Browser, CHROMIUM_PATH, chromiumAvailable, type BrowserPage } from '../../dev/browser/cdp';
import { clientsFor, raw, startTestSandbox } from '../support/sandbox';

/**
 * The console's "Tap a reply" in Debian's headless chromium: it loads a buttons message the instance sent,
 * shows one button per choice, and a click taps it (the sandbox stores the received reply).
 */

type Keys = NonNullable<Sandbox['keys']>;

const inCi = Boolean(process.env.CI);
const haveChromium = chromiumAvailable();
if (!haveChromium && !inCi) {
	process.stderr.write(`SKIPPED: the console's tap test needs chromium at ${CHROMIUM_PATH}\n`);
}

(haveChromium || inCi ? describe : describe.skip)('console: tap a reply', () => {
	let sandbox: Sandbox;
	let browser: Browser | undefined;
	let page: BrowserPage;

	beforeAll(async () => {
		sandbox = await startTestSandbox();
		browser = await Browser.launch({ timeoutMs: 30_000 });
		page = await browser.newPage();
	}, 60_000);
	afterAll(async () => {
		await browser?.close();
		await sandbox?.close();
	}, 30_000);

	it('shows the choices of a buttons message and taps the one clicked', async () => {
		const keys = sandbox.keys as Keys;
		const client = clientsFor(sandbox.baseUrl, keys).workspace;
		const instance = await client.instances.create({ body: { name: 'Console taps' } });
		await client.instances.connect({ instanceId: instance.id, body: { method: 'qr' } });
		await raw(sandbox.baseUrl, 'POST', `/sandbox/instances/${instance.id}/scan`, {
			key: keys.workspace,
			body: {},
		});
		const sent = await client.messages.sendButtons({
			instanceId: instance.id,
			body: {
				to: '+14155550177',
				text: 'Still on for Tuesday?',
				buttons: [
					{ id: 'yes', title: 'Yes' },
					{ id: 'move', title: 'Move it' },
				],
			},
		});

		await page.goto(`${sandbox.baseUrl}/user/api`);
		await page.waitFor(`document.body.getAttribute('data-ready') === 'true'`, {
			timeoutMs: 15_000,
		});
		await page.type('#signin-key', keys.workspace);
		await page.click('#signin-submit');
		await page.waitFor(`document.getElementById('signin').hidden`, { what: 'signed in' });

		await page.type('#tap-instance', instance.id);
		await page.type('#tap-message', 'msg_missing');
		await page.click('#tap-load');
		await page.waitFor(`!document.getElementById('tap-error').hidden`, { what: 'the error' });
		expect(await page.evaluate(`document.getElementById('tap-error').textContent`)).toContain(
			'msg_missing',
		);

		await page.evaluate(`document.getElementById('tap-message').value = ''`);
		await page.type('#tap-message', sent.id);
		await page.click('#tap-load');
		await page.waitFor(`document.querySelectorAll('#tap-choices button').length === 2`, {
			what: 'the two choices',
		});
		expect(
			await page.evaluate(
				`[...document.querySelectorAll('#tap-choices button')].map((button) => button.textContent)`,
			),
		).toEqual(['Yes', 'Move it']);
		await page.click('#tap-choices button[data-id="move"]');
		await page.waitFor(`!document.getElementById('tap-result').hidden`, { what: 'the tap' });

		const replies = sandbox.store.all('messages', (message) => message.reply !== undefined);
		expect(replies.map((message) => message.reply)).toEqual([
			{ type: 'button', id: 'move', title: 'Move it', toMessageId: sent.id },
		]);
		expect(await page.evaluate(`document.getElementById('tap-result').textContent`)).toContain(
			'"move" (Move it)',
		);
	});
});
