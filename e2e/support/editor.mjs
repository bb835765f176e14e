// n8n's editor in headless chromium (Playwright driving Debian's chromium, dev/browser/chromium.ts), signed in as
// the stack's owner, for the e2e files that look at what a user sees. Plain Node.
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';

import { OWNER } from '../../dev/stack/stack.mjs';
import { log } from './harness.mjs';

// The browser code is TypeScript, loaded through ts-node as the bench and the screenshot are.
const require = createRequire(import.meta.url);
require('ts-node').register({ transpileOnly: true });
const { Browser, chromiumAvailable } = require('../../dev/browser/chromium.ts');
const { signInToEditor } = require('../../dev/browser/n8n-editor.ts');

export const haveChromium = chromiumAvailable();
if (!haveChromium && process.env.CI)
	throw new Error('chromium is missing: apt-get install chromium');

/** The visible text of the elements a selector finds, one string each. */
export const textsOf = (page, selector) =>
	page.evaluate(
		`[...document.querySelectorAll(${JSON.stringify(selector)})].map((element) => element.innerText)`,
	);

/**
 * Registers hooks (in the enclosing `describe`) that open a browser signed in to the stack's n8n and close it.
 * `editor.page` is the page; `editor.check(name, body)` runs a check and, when it fails, saves a screenshot of the
 * page (`editor.shot(name)`) to see why.
 */
export function useEditor(ctx) {
	const editor = { page: undefined, browser: undefined };
	before(async () => {
		editor.browser = await Browser.launch({ window: { width: 1440, height: 900 } });
		editor.page = await editor.browser.newPage();
		await editor.page.setViewport(1440, 900);
		// The editor loads hundreds of files: keep every resource timing, not the first 250, to find its requests.
		await editor.page.playwright.addInitScript('performance.setResourceTimingBufferSize(100000)');
		await signInToEditor(editor.page, ctx.stack.n8n.url, OWNER);
	});
	after(async () => {
		await editor.browser?.close();
	});
	/** Saves what the page looks like, to see why a check failed. */
	editor.shot = async (name) => {
		const file = join(tmpdir(), `multichannel-editor-${name}.png`);
		await editor.page?.screenshot(file).then(
			() => log(`the page at the failure: ${file}`),
			() => undefined,
		);
	};
	editor.check = async (name, body) => {
		try {
			return await body();
		} catch (error) {
			await editor.shot(name);
			throw error;
		}
	};
	return editor;
}
