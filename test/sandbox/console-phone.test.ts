/* eslint-disable @n8n/community-nodes/no-restricted-globals -- tests run in plain Node, never inside n8n */
/**
 * The console's "Simulate a contact" form in headless chromium: signed in with a workspace key, it sends one of
 * the sandbox's sample files from a contact to a connected instance; the sandbox then holds a received message
 * with that file, whose download has the sample's bytes. The number is read by the nodes' phone rule, which
 * refuses a national number rather than guess its country.
 */
import { createHash } from 'node:crypto';

import { chromiumAvailable, type BrowserPage } from '../../dev/browser/chromium';
import { sampleFile } from '../../sandbox/samples';
import type { Sandbox } from '../../sandbox/server';
import { connectedInstance, consoleInBrowser, consoleReady } from '../support/sandbox';

type Keys = NonNullable<Sandbox['keys']>;
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

(chromiumAvailable() || process.env.CI ? describe : describe.skip)(
	'console: simulate a contact sending a file',
	() => {
		const session = consoleInBrowser();
		let sandbox: Sandbox;
		let keys: Keys;
		let page: BrowserPage;
		let instanceId: string;

		beforeAll(async () => {
			({ sandbox, page } = session);
			keys = sandbox.keys as Keys;
			instanceId = (await connectedInstance(sandbox, 'Console phone', '+14155550150')).id;
		});

		it('sends the sample PDF; the sandbox holds the received message and its file', async () => {
			await page.goto(`${sandbox.baseUrl}/user/api`);
			await consoleReady(page);

			// Not signed in yet: the form says what it needs.
			await page.type('#phone-instance', instanceId);
			// Written as people write it: the nodes' phone rule reads it as +14155550151 here too.
			await page.type('#phone-from', '+1 415 555 0151');
			await page.click('#phone-submit');
			await page.waitFor(`!document.getElementById('phone-error').hidden`, { what: 'the error' });
			expect(await page.text('#phone-error')).toMatch(/^Sign in with a workspace key first/);

			await page.type('#signin-key', keys.workspace);
			await page.click('#signin-submit');
			await page.waitFor(`!document.getElementById('who').hidden`, { what: 'the sign-in' });
			await page.evaluate(`document.getElementById('phone-sample').value = 'pdf'`);
			await page.type('#phone-caption', 'Invoice attached');
			await page.click('#phone-submit');
			await page.waitFor(`!document.getElementById('phone-result').hidden`, {
				what: 'the received message',
			});

			const received = sandbox.store.all(
				'messages',
				(message) => message.direction === 'inbound' && message.from === '+14155550151',
			);
			expect(received).toHaveLength(1);
			const [message] = received;
			expect(message).toMatchObject({
				type: 'document',
				content: { caption: 'Invoice attached' },
				media: { fileName: 'sample-document.pdf', mimeType: 'application/pdf' },
			});
			expect(await page.text('#phone-result')).toContain(message.id);
			const file = sandbox.core.media.get(sandbox.workspaceId, message.media?.id ?? '');
			expect(sha256(file?.data ?? Buffer.alloc(0))).toBe(sha256(sampleFile('pdf').data));
		});

		it('refuses a national number, as the nodes do with no Default Country, and sends nothing', async () => {
			const inbound = () =>
				sandbox.store.all('messages', (message) => message.direction === 'inbound').length;
			const before = inbound();
			await page.evaluate(`document.getElementById('phone-from').value = '(415) 555-0152'`);
			await page.click('#phone-submit');
			await page.waitFor(`!document.getElementById('phone-error').hidden`, { what: 'the error' });

			expect(await page.text('#phone-error')).toMatch(
				/^From: "\(415\) 555-0152" looks like a national number \(it has parentheses\) and no Default Country is set\. .*enter it with its country code/,
			);
			expect(inbound()).toBe(before);
		});
	},
);
