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

/** n8n's router (vue-router), on the Vue app the editor mounts on #app, in both n8n lines. */
const ROUTER = `document.querySelector('#app')?.__vue_app__?.config.globalProperties.$router`;

/**
 * A path no route of n8n's has: its "not found" view, which reads nothing. `editor.open` passes by it so that the
 * view opened next is mounted anew.
 */
const BLANK = '/e2e-blank';

/** The address of a node's details, `/workflow/<id>/<node id>`; [1] is its workflow's. */
const NODE_DETAILS = /^(\/workflow\/[^/]+)\/[^/]+$/;

/** Whether a dialog is shown (n8n's modals, a credential's say, are Element Plus dialogs over an overlay). */
const DIALOG_SHOWN = `[...document.querySelectorAll('.el-overlay')].some((overlay) => overlay.checkVisibility())`;

/**
 * Registers hooks (in the enclosing `describe`) that open a browser signed in to the stack's n8n and close it.
 * `editor.page` is the page; `editor.open(path)` shows a page of the editor as a fresh visit does;
 * `editor.check(name, body)` runs a check and, when it fails, saves a screenshot of the page (`editor.shot(name)`)
 * to see why.
 */
export function useEditor(ctx) {
	const editor = { page: undefined, browser: undefined };
	// The requests to n8n's REST API in flight, and when the last began or ended (editor.quiet).
	const network = { inFlight: 0, changed: Date.now() };
	// The last REST answers the page had, for a failed check's log.
	const recent = [];
	const counted = (change) => (request) => {
		if (!request.url().startsWith(`${ctx.stack.n8n.url}/rest/`)) return;
		network.inFlight += change;
		network.changed = Date.now();
	};
	before(async () => {
		editor.browser = await Browser.launch({ window: { width: 1440, height: 900 } });
		editor.page = await editor.browser.newPage();
		await editor.page.setViewport(1440, 900);
		// The editor loads hundreds of files: keep every resource timing, not the first 250, to find its requests.
		await editor.page.playwright.addInitScript('performance.setResourceTimingBufferSize(100000)');
		editor.page.playwright.on('request', counted(+1));
		editor.page.playwright.on('requestfinished', counted(-1));
		editor.page.playwright.on('requestfailed', counted(-1));
		editor.page.playwright.on('response', (response) => {
			if (!response.url().startsWith(`${ctx.stack.n8n.url}/rest/`)) return;
			const { pathname } = new URL(response.url());
			recent.push(`${response.status()} ${response.request().method()} ${pathname}`);
			if (recent.length > 20) recent.shift();
		});
		await signInToEditor(editor.page, ctx.stack.n8n.url, OWNER);
	});
	after(async () => {
		await editor.browser?.close();
	});

	/** Moves the loaded app to `to` with its router, as a click on a link does; resolves once it is drawn. */
	const move = async (to) => {
		// A guard of n8n's (a question about unsaved changes) would hold the move: waited for 20 s at most.
		const outcome = await editor.page.evaluate(`Promise.race([
			${ROUTER}.push(${JSON.stringify(to)}).then((failure) => (failure ? String(failure) : 'moved')),
			new Promise((resolve) => setTimeout(() => resolve('no answer in 20 s'), 20000)),
		]).then((outcome) => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(outcome)))))`);
		if (outcome !== 'moved') throw new Error(`the editor did not move to ${to}: ${outcome}`);
	};
	/**
	 * Opens `path` (`/workflow/<id>`, a node's details `/workflow/<id>/<node id>`, …) as a fresh visit does. The
	 * editor's app is loaded once per file, by the first call (a full load costs 10–30 s under CI's load); the next
	 * calls move inside it with its router (about 1 s each move), as a user's clicks do:
	 * - a node's details left open are closed first (n8n 1.x keeps them open across views, and opens them again on
	 *   the next workflow that has a node of that name);
	 * - then to BLANK, so that the view before is unmounted (its panels closed; the workflow opened next is read
	 *   again), and notifications left are closed;
	 * - a node's details are opened from its workflow's canvas (n8n 1.x opens none named in the address of a
	 *   workflow not yet on the canvas).
	 * `{ reload: true }` loads the whole app again.
	 */
	editor.open = async (path, { reload = false } = {}) => {
		const { page } = editor;
		if (!reload && (await page.evaluate(`Boolean(${ROUTER})`))) {
			const { pathname, details } = await page.evaluate(`({
				pathname: location.pathname,
				details: Boolean(document.querySelector('[data-test-id="ndv"]')?.checkVisibility()),
			})`);
			if (details) {
				await move(NODE_DETAILS.exec(pathname)?.[1] ?? pathname);
				await page.waitFor(`!document.querySelector('[data-test-id="ndv"]')?.checkVisibility()`, {
					what: "the node's details closed",
				});
			}
			await move(BLANK);
			// Notifications belong to the app too (an execution's error, say): closed, as a user would.
			await page.evaluate(
				`document.querySelectorAll('.el-notification .el-notification__closeBtn').forEach((close) => close.click())`,
			);
			if (!(await page.evaluate(DIALOG_SHOWN))) {
				const workflow = NODE_DETAILS.exec(path)?.[1];
				if (workflow) {
					await move(workflow);
					await page.waitFor(
						`document.querySelectorAll('[data-test-id="canvas-node"]').length > 0`,
						{ what: `the canvas of ${workflow}`, timeoutMs: 30_000 },
					);
				}
				return await move(path);
			}
			// Dialogs belong to the app, not to a view: one left open (by a test that failed, say) stays over the
			// next view, so the app is loaded anew.
			log(`a dialog is open: the editor is loaded anew for ${path}`);
		}
		await page.goto(`${ctx.stack.n8n.url}${path}`, 30_000);
	};
	/** Waits until the page has had no request to n8n's REST API in flight for `ms`: what it asked for is in. */
	editor.quiet = async (ms = 1000, timeoutMs = 30_000) => {
		const deadline = Date.now() + timeoutMs;
		while (network.inFlight > 0 || Date.now() - network.changed < ms) {
			if (Date.now() > deadline)
				throw new Error(`the editor's requests went on for ${timeoutMs} ms`);
			await new Promise((resolve) => setTimeout(resolve, 50));
		}
	};
	/**
	 * Saves what the page looks like, to see why a check failed. Animations under way are shown at their end (a
	 * dialog opening, say), without waiting for them.
	 */
	editor.shot = async (name) => {
		const file = join(tmpdir(), `multichannel-editor-${name}.png`);
		await editor.page?.playwright
			.screenshot({ path: file, animations: 'disabled', timeout: 30_000 })
			.then(
				() => log(`the page: ${file}`),
				() => undefined,
			);
	};
	editor.check = async (name, body) => {
		try {
			return await body();
		} catch (error) {
			await editor.shot(name);
			// n8n's notifications say what it made of the failure (an execution's error, say).
			const notices = await editor.page
				?.evaluate(
					`[...document.querySelectorAll('.el-notification')].map((notice) => notice.innerText).join(' | ')`,
				)
				.catch(() => '');
			if (notices) log(`n8n's notifications: ${JSON.stringify(notices)}`);
			const dialogs = await editor.page
				?.evaluate(
					`[...document.querySelectorAll('.el-overlay')].filter((overlay) => overlay.checkVisibility()).map((overlay) => overlay.innerText).join(' | ')`,
				)
				.catch(() => '');
			if (dialogs) log(`dialogs open: ${JSON.stringify(dialogs)}`);
			log(`the editor's last REST answers: ${recent.join(', ')}`);
			throw error;
		}
	};
	return editor;
}
