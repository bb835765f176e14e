/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- dev code runs in plain Node, never inside n8n */
/**
 * `npx ts-node --transpile-only dev/browser/console-screenshot.ts [out-dir] [width] [height]`: starts a sandbox in
 * memory, signs in to its console (/user/api) in headless chromium, generates a key and saves two pictures:
 * the key list with the "shown once" panel (console-keys.png) and the API reference with the key pasted and
 * an endpoint opened (console-reference.png; CONSOLE_FILTER picks it by the words of its summary). Default
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
	} catch (error) {
		log(`failed: ${(error as Error).message}`);
		process.exitCode = 1;
	} finally {
		await browser?.close();
		await sandbox?.close();
	}
}

void main();
