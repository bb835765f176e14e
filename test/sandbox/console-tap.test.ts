/* eslint-disable @n8n/community-nodes/no-restricted-globals -- tests run in plain Node, never inside n8n */
/**
 * The console's "Tap a reply" in headless chromium: it loads a buttons message the instance sent, shows one
 * button per choice, and a click taps it (the sandbox stores the received reply).
 */
import { chromiumAvailable } from '../../dev/browser/chromium';
import type { Sandbox } from '../../sandbox/server';
import {
	clientsFor,
	connectedInstance,
	consoleInBrowser,
	signInToConsole,
} from '../support/sandbox';

type Keys = NonNullable<Sandbox['keys']>;

(chromiumAvailable() || process.env.CI ? describe : describe.skip)('console: tap a reply', () => {
	const session = consoleInBrowser();

	/** A connected instance that sent a buttons message, and the console open and signed in afresh. */
	async function buttonsSent(
		name: string,
		phones: [string, string],
		text: string,
		choices: string[][],
	) {
		const { sandbox, page } = session;
		const keys = sandbox.keys as Keys;
		const instance = await connectedInstance(sandbox, name, phones[0]);
		const sent = await clientsFor(sandbox.baseUrl, keys).workspace.messages.sendButtons({
			instanceId: instance.id,
			body: { to: phones[1], text, buttons: choices.map(([id, title]) => ({ id, title })) },
		});
		await signInToConsole(page, sandbox.baseUrl, keys.workspace);
		return { sandbox, page, instance, sent };
	}

	it('shows the choices of a buttons message and taps the one clicked', async () => {
		const { sandbox, page, instance, sent } = await buttonsSent(
			'Console taps',
			['+14155550176', '+14155550177'],
			'Still on for Tuesday?',
			[
				['yes', 'Yes'],
				['move', 'Move it'],
			],
		);

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

	it('offers the workspace’s instances and the buttons messages an instance sent, and shows the choices of the one picked', async () => {
		const { page, instance, sent } = await buttonsSent(
			'Console pickers',
			['+14155550178', '+14155550179'],
			'Pick a slot',
			[
				['am', 'Morning'],
				['pm', 'Afternoon'],
			],
		);
		await page.waitFor(
			`!!document.querySelector('#instance-options option[value="${instance.id}"]')`,
			{ what: 'the instance among the suggestions' },
		);
		expect(
			await page.evaluate(
				`document.querySelector('#instance-options option[value="${instance.id}"]').label`,
			),
		).toBe('Console pickers (connected)');

		// Picking the instance offers its buttons messages; picking one shows its choices, no button pressed.
		await page.evaluate(`(() => { const input = document.getElementById('tap-instance');
			input.value = ${JSON.stringify(instance.id)}; input.dispatchEvent(new Event('change')); })()`);
		await page.waitFor(
			`!!document.querySelector('#tap-message-options option[value="${sent.id}"]')`,
			{
				what: 'the buttons message among the suggestions',
			},
		);
		expect(
			await page.evaluate(
				`document.querySelector('#tap-message-options option[value="${sent.id}"]').label`,
			),
		).toBe('buttons to +14155550179: Pick a slot');
		await page.evaluate(`(() => { const input = document.getElementById('tap-message');
			input.value = ${JSON.stringify(sent.id)}; input.dispatchEvent(new Event('change')); })()`);
		await page.waitFor(`document.querySelectorAll('#tap-choices button').length === 2`, {
			what: 'the choices of the message picked',
		});
		expect(
			await page.evaluate(
				`[...document.querySelectorAll('#tap-choices button')].map((button) => button.textContent)`,
			),
		).toEqual(['Morning', 'Afternoon']);
	});
});
