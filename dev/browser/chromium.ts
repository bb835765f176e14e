/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code runs in plain Node, never inside n8n, and starts chromium */
import { existsSync } from 'node:fs';
import { chromium, type Browser as PlaywrightBrowser, type Page } from 'playwright-core';

/**
 * Debian's chromium, headless, driven by playwright-core (which never downloads a browser of its own): the
 * console's browser test, the editor e2e test and `npm run screenshot`. Pages are driven by expressions
 * evaluated in the page and waited for (`evaluate`, `waitFor`), with Playwright's clicks and typing;
 * `playwright` is the Playwright page for the rest.
 */

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function chromiumAvailable(path = CHROMIUM_PATH): boolean {
	return existsSync(path);
}

const ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

export interface LaunchOptions {
	path?: string;
	timeoutMs?: number;
	/** The browser window and the page's viewport (default 1280×900). */
	window?: { width: number; height: number };
	/** More chromium switches, e.g. `--hide-scrollbars` for a picture. */
	flags?: string[];
}

export class Browser {
	private constructor(
		private readonly browser: PlaywrightBrowser,
		private readonly window: { width: number; height: number },
	) {}

	/** Starts chromium; fails after `timeoutMs`. */
	static async launch(options: LaunchOptions = {}): Promise<Browser> {
		const window = options.window ?? { width: 1280, height: 900 };
		const browser = await chromium.launch({
			executablePath: options.path ?? CHROMIUM_PATH,
			args: [...ARGS, ...(options.flags ?? []), `--window-size=${window.width},${window.height}`],
			timeout: options.timeoutMs ?? 20_000,
		});
		return new Browser(browser, window);
	}

	/** A new tab in a fresh context (its own cookies and storage). */
	async newPage(): Promise<BrowserPage> {
		const context = await this.browser.newContext({ viewport: this.window });
		return new BrowserPage(await context.newPage());
	}

	/** Closes chromium and removes its profile. */
	async close(): Promise<void> {
		await this.browser.close();
	}
}

export class BrowserPage {
	constructor(readonly playwright: Page) {}

	/** Renders the page at this size, whatever the window's. */
	async setViewport(width: number, height: number): Promise<void> {
		await this.playwright.setViewportSize({ width, height });
	}

	/** Navigates and waits for the load event. */
	async goto(url: string, timeoutMs = 15_000): Promise<void> {
		await this.playwright.goto(url, { waitUntil: 'load', timeout: timeoutMs });
	}

	async reload(timeoutMs = 15_000): Promise<void> {
		await this.playwright.reload({ waitUntil: 'load', timeout: timeoutMs });
	}

	/** The text of the first element `selector` matches; null when none does. */
	async text(selector: string): Promise<string | null> {
		return await this.evaluate<string | null>(
			`document.querySelector(${JSON.stringify(selector)})?.textContent ?? null`,
		);
	}

	/** Evaluates an expression in the page (awaiting a promise) and returns its JSON value. */
	async evaluate<T = unknown>(expression: string): Promise<T> {
		return (await this.playwright.evaluate(expression)) as T;
	}

	/**
	 * Polls `expression` until it is truthy; returns its value. A loop over `evaluate`, not Playwright's
	 * `waitForFunction`: that evaluates the string with `eval` inside the page, which the console's CSP forbids.
	 */
	async waitFor<T = unknown>(
		expression: string,
		options: { timeoutMs?: number; what?: string } = {},
	): Promise<T> {
		const deadline = Date.now() + (options.timeoutMs ?? 10_000);
		for (;;) {
			const value = await this.evaluate<T>(expression);
			if (value) return value;
			if (Date.now() > deadline) {
				throw new Error(`timed out waiting for ${options.what ?? expression}`);
			}
			await this.playwright.waitForTimeout(50);
		}
	}

	/** A real mouse click at the middle of the element, once it is visible and enabled. */
	async click(selector: string): Promise<void> {
		await this.playwright.click(selector, { timeout: 10_000 });
	}

	/** Fills the field with `text` (what it held before is replaced), as keyboard input. */
	async type(selector: string, text: string): Promise<void> {
		await this.playwright.fill(selector, text, { timeout: 10_000 });
	}

	/** A PNG of the viewport (or the whole page), written to `path`. */
	async screenshot(path: string, options: { fullPage?: boolean } = {}): Promise<void> {
		await this.playwright.screenshot({
			path,
			fullPage: options.fullPage ?? false,
			timeout: 30_000,
		});
	}
}
