/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- dev code runs in plain Node, never inside n8n */
/**
 * `npm run screenshot [-- out.png]`: starts the stack in a temporary folder (as the e2e tests do), signs in to
 * the editor as the owner in headless chromium and saves a picture of an example workflow built from the
 * package's nodes (default docs/editor.png). Everything started is stopped at the end.
 *   SCREENSHOT_WORKFLOW   example file to show (default campaign-link-clicks.json)
 *   E2E_SKIP_BUILD=1      reuse dist/ as it is
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { runtimeModule, stackModule, type Stack } from '../stack/modules';
import { Browser, type BrowserPage } from './chromium';
import { signInToEditor } from './n8n-editor';

const WIDTH = 1440;
const HEIGHT = 900;
const log = (message: string) => process.stderr.write(`[screenshot] ${message}\n`);

async function main() {
	const [{ REPO }, { OWNER, startHeadlessStack }] = await Promise.all([
		runtimeModule(),
		stackModule(),
	]);
	const out = resolve(process.argv[2] ?? join(REPO, 'docs', 'editor.png'));
	const file = process.env.SCREENSHOT_WORKFLOW ?? 'campaign-link-clicks.json';
	const dir = mkdtempSync(join(tmpdir(), 'multichannel-screenshot-'));

	let stack: Stack | undefined;
	let browser: Browser | undefined;
	let page: BrowserPage | undefined;
	const watchdog = setTimeout(() => {
		log('no screenshot within 5 minutes; stopping');
		void Promise.all([browser?.close(), stack?.stop()]).finally(() => process.exit(1));
	}, 300_000);

	try {
		stack = await startHeadlessStack({ dir, log });
		const entry = [...stack.examples.imported, ...stack.examples.kept].find(
			(candidate) => candidate.file === file,
		);
		if (!entry)
			throw new Error(`${file} was not imported: ${JSON.stringify(stack.examples.skipped)}`);

		browser = await Browser.launch({
			window: { width: WIDTH, height: HEIGHT },
			flags: ['--hide-scrollbars'],
		});
		page = await browser.newPage();
		await page.setViewport(WIDTH, HEIGHT);
		await signInToEditor(page, stack.n8n.url, OWNER);

		await page.goto(`${stack.n8n.url}/workflow/${entry.id}`, 30_000);
		// Every node but the sticky notes, which the canvas draws apart.
		const { nodes } = JSON.parse(readFileSync(join(REPO, 'examples', file), 'utf8')) as {
			nodes: Array<{ type: string }>;
		};
		const drawn = nodes.filter((node) => node.type !== 'n8n-nodes-base.stickyNote').length;
		await page.waitFor(
			`document.querySelectorAll('[data-test-id="canvas-node"]').length >= ${drawn}`,
			{
				what: 'the workflow canvas with its nodes',
				timeoutMs: 60_000,
			},
		);
		// Let the canvas fit the view and the icons load.
		await sleep(2500);
		// Fit the workflow, then zoom out a step so that it stays in view beside the node panel.
		await page.evaluate(
			`document.querySelector('[data-test-id="canvas-zoom-to-fit"]')?.click(); true`,
		);
		await sleep(500);
		await page.evaluate(`document.querySelector('[data-test-id*="zoom-out"]')?.click(); true`);
		await sleep(800);
		// Open the node panel and search for the package: every Multichannel node is listed beside the canvas.
		await page.evaluate(
			`document.querySelector('[data-test-id="node-creator-plus-button"]')?.click(); true`,
		);
		await page.waitFor(
			`(() => { const input = document.querySelector('[data-test-id="node-creator-search-bar"] input, [data-test-id="node-creator"] input');
				if (!input) return false; input.focus(); return document.activeElement === input; })()`,
			{ what: 'the node panel search field', timeoutMs: 30_000 },
		);
		await page.playwright.keyboard.insertText('Multichannel');
		await page.waitFor(
			`(document.querySelector('[data-test-id="node-creator"]') ?? document.body).innerText.includes('Multichannel Automation')`,
			{ what: 'the package nodes in the node panel', timeoutMs: 30_000 },
		);
		await sleep(1500);
		await page.screenshot(out);
		log(`saved ${out}`);
	} catch (error) {
		log(`failed: ${(error as Error).message}`);
		// What the page looked like, to see why.
		const failed = join(tmpdir(), 'multichannel-screenshot-failed.png');
		await page?.screenshot(failed).then(
			() => log(`the page at the failure: ${failed}`),
			() => undefined,
		);
		process.exitCode = 1;
	} finally {
		clearTimeout(watchdog);
		await browser?.close();
		await stack?.stop();
		rmSync(dir, { recursive: true, force: true });
	}
}

void main();
