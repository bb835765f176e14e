/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- dev code runs in plain Node, never inside n8n */
/**
 * `npx ts-node --transpile-only dev/browser/console-screenshot.ts [out-dir] [width] [height]`: starts a sandbox in
 * memory, signs in to its console (/user/api) in headless chromium, generates a key and saves two pictures:
 * the key list with the "shown once" panel (console-keys.png) and the API reference with the key pasted and
 * an endpoint opened (console-reference.png; CONSOLE_FILTER picks it by the words of its summary), and the phone
 * with a conversation (console-chat.png: a text, a quote, a file, n8n's buttons and reaction, typing). Default
 * 1280×800, into the system's temporary folder.
 */
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { startSandbox, type Sandbox } from '../../sandbox/server';
import { Browser } from './chromium';

const log = (message: string) => process.stderr.write(`[console-screenshot] ${message}\n`);

async function main() {
	const out = resolve(process.argv[2] ?? tmpdir());
	const width = Number(process.argv[3] ?? 1280);
	const height = Number(process.argv[4] ?? 800);
	let sandbox: Sandbox | undefined;
	let browser: Browser | undefined;
	try {
		sandbox = await startSandbox({ port: 0, log: () => undefined });
		const keys = sandbox.keys as NonNullable<Sandbox['keys']>;
		browser = await Browser.launch({ window: { width, height }, flags: ['--hide-scrollbars'] });
		const page = await browser.newPage();
		await page.goto(`${sandbox.baseUrl}/user/api`);
		await page.waitFor(`document.body.getAttribute('data-ready') === 'true'`, {
			what: 'the console',
		});
		await page.type('#signin-key', keys.workspace);
		await page.click('#signin-submit');
		await page.waitFor(`document.querySelectorAll('#keys-body tr').length === 3`, {
			what: 'the key list',
		});
		await page.type('#create-name', 'Production server');
		await page.click('#create-submit');
		await page.waitFor(`!document.getElementById('secret-panel').hidden`, {
			what: 'the new key',
		});
		const keysPicture = join(out, 'console-keys.png');
		await page.evaluate(`document.getElementById('keys').scrollIntoView(); true`);
		await page.screenshot(keysPicture);
		log(`saved ${keysPicture}`);

		// The reference's head (the key, masked) above one endpoint opened, found by its summary.
		await page.click('#secret-use');
		await page.type('#ref-filter', process.env.CONSOLE_FILTER ?? 'list messages of');
		await page.evaluate(`(() => { document.querySelector('#reference-body details.op').open = true;
			document.getElementById('reference').scrollIntoView(); return true; })()`);
		const referencePicture = join(out, 'console-reference.png');
		await page.screenshot(referencePicture);
		log(`saved ${referencePicture}`);

		await chatScene(sandbox.baseUrl, keys.workspace);
		await page.reload();
		await page.waitFor(`document.body.getAttribute('data-ready') === 'true'`, {
			what: 'the console',
		});
		await page.waitFor(`document.getElementById('chat-instance').value !== ''`, {
			what: 'the instance',
		});
		await page.type('#chat-from', CONTACT);
		await page.click('#chat-open');
		await page.waitFor(`document.querySelectorAll('#chat-messages li').length >= 5`, {
			what: 'the chat',
		});
		await page.evaluate(
			`(() => { document.getElementById('chat').scrollIntoView(); return true; })()`,
		);
		const chatPicture = join(out, 'console-chat.png');
		await page.screenshot(chatPicture);
		log(`saved ${chatPicture}`);
	} catch (error) {
		log(`failed: ${(error as Error).message}`);
		process.exitCode = 1;
	} finally {
		await browser?.close();
		await sandbox?.close();
	}
}

const CONTACT = '+14155550123';

/** A conversation to show: the contact writes, n8n answers with buttons and a reaction, and is typing. */
async function chatScene(baseUrl: string, key: string): Promise<void> {
	const call = async (method: string, path: string, body?: unknown) => {
		const response = await fetch(`${baseUrl}${path}`, {
			method,
			headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		if (!response.ok)
			throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
		return (await response.json()) as { id: string };
	};
	const instance = await call('POST', '/api/v1/instances', { name: 'Sales' });
	const on = `/api/v1/instances/${instance.id}`;
	await call('POST', `${on}/connect`, { method: 'qr' });
	await call('POST', `/sandbox/instances/${instance.id}/scan`, { phoneNumber: '+14155550100' });
	const hello = await call('POST', `/sandbox/instances/${instance.id}/inbound`, {
		from: CONTACT,
		text: 'Hi! Is the blue jacket still in stock in size M?',
	});
	await call('POST', `${on}/messages/reaction`, { to: CONTACT, messageId: hello.id, emoji: '👍' });
	const question = await call('POST', `${on}/messages/buttons`, {
		to: CONTACT,
		text: 'It is! Shall we keep one for you until Friday?',
		buttons: [
			{ id: 'yes', title: 'Yes, please' },
			{ id: 'no', title: 'No, thanks' },
		],
	});
	await call('POST', `/sandbox/instances/${instance.id}/messages/${question.id}/tap`, {
		id: 'yes',
	});
	await call('POST', `/sandbox/instances/${instance.id}/inbound`, {
		from: CONTACT,
		text: 'And could you send me the size chart?',
		quotedMessageId: question.id,
	});
	await call('POST', `/sandbox/instances/${instance.id}/inbound/media`, {
		from: CONTACT,
		sample: 'image',
		caption: 'This is the one I mean',
	});
	await call('POST', `${on}/typing`, { to: CONTACT, seconds: 25 });
}

void main();
