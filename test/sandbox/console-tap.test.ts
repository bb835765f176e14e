/* eslint-disable @n8n/community-nodes/no-restricted-globals -- tests run in plain Node, never inside n8n */
/**
 * The console's "Tap a reply" in headless chromium: it loads a buttons message the instance sent, shows one
 * button per choice, and a click taps it (the sandbox stores the received reply).
 */
import { chromiumAvailable } from '../../dev/browser/chromium';
import type { Sandbox } from '../../sandbox/server';
import { clientsFor, connectedInstance, consoleInBrowser, consoleReady } from '../support/sandbox';

type Keys = NonNullable<Sandbox['keys']>;

(chromiumAvailable() || process.env.CI ? describe : describe.skip)('console: tap a reply', () => {
	const session = consoleInBrowser();

	it('shows the choices of a buttons message and taps the one clicked', async () => {
		const { sandbox, page } = session;
		const keys = sandbox.keys as Keys;
		const instance = await connectedInstance(sandbox, 'Console taps', '+14155550176');
		const sent = await clientsFor(sandbox.baseUrl, keys).workspace.messages.sendButtons({
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
		await consoleReady(page);
		await page.type('#signin-key', keys.workspace);
		await page.click('#signin-submit');
		await page.waitFor(`document.getElementById('signin').hidden`, { what: 'signed in' });

		await page.type('#tap-instance', instance.id);
		await page.type('#tap-message', 'msg_missing');
		await page.click('#tap-load');
		await page.waitFor(`!document.getElementById('tap-error').hidden`, { what: 'the error' });
		expect(await page.text('#tap-error')).toContain('msg_missing');

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
		expect(await page.text('#tap-result')).toContain('"move" (Move it)');
	});
});
