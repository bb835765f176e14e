/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code runs in plain Node, never inside n8n, and starts chromium */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'undici';

/**
 * The one Chrome DevTools Protocol client (the console's browser test, `npm run screenshot`): starts Debian's
 * chromium headless with a fresh profile, speaks CDP over undici's WebSocket, and gives a page with evaluate /
 * click / type / wait / screenshot. Every wait is bounded; `close()` ends chromium's whole process group and
 * removes the profile.
 */

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function chromiumAvailable(path = CHROMIUM_PATH): boolean {
	return existsSync(path);
}

const FLAGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--no-default-browser-check',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--disable-dev-shm-usage',
	'--remote-debugging-port=0',
];

interface Pending {
	resolve: (value: Record<string, unknown>) => void;
	reject: (error: Error) => void;
	timer: NodeJS.Timeout;
	method: string;
}

interface CdpMessage {
	id?: number;
	method?: string;
	params?: Record<string, unknown>;
	result?: Record<string, unknown>;
	error?: { message: string; data?: string };
	sessionId?: string;
}

export class CdpError extends Error {}

export interface LaunchOptions {
	path?: string;
	timeoutMs?: number;
	/** The browser window (default 1280×900). */
	window?: { width: number; height: number };
	/** More chromium switches, e.g. `--hide-scrollbars` for a picture. */
	flags?: string[];
}

export class Browser {
	private nextId = 1;
	private readonly pending = new Map<number, Pending>();
	private readonly listeners = new Set<(message: CdpMessage) => void>();
	private closed: Promise<void> | undefined;

	private constructor(
		private readonly child: ChildProcess,
		private readonly socket: WebSocket,
		private readonly profileDir: string,
		readonly stderr: () => string,
	) {
		socket.addEventListener('message', (event) => {
			const message = JSON.parse(String(event.data)) as CdpMessage;
			if (message.id !== undefined) {
				const waiting = this.pending.get(message.id);
				if (!waiting) return;
				this.pending.delete(message.id);
				clearTimeout(waiting.timer);
				if (message.error) {
					waiting.reject(
						new CdpError(`${waiting.method}: ${message.error.message} ${message.error.data ?? ''}`),
					);
				} else {
					waiting.resolve(message.result ?? {});
				}
				return;
			}
			for (const listener of this.listeners) listener(message);
		});
		socket.addEventListener('close', () => this.failAll('the DevTools connection closed'));
	}

	/** Starts chromium and connects to it; fails (and cleans up) after `timeoutMs`. */
	static async launch(options: LaunchOptions = {}): Promise<Browser> {
		const timeoutMs = options.timeoutMs ?? 20_000;
		const { width, height } = options.window ?? { width: 1280, height: 900 };
		const profileDir = mkdtempSync(join(tmpdir(), 'cdp-profile-'));
		const child = spawn(
			options.path ?? CHROMIUM_PATH,
			[
				...FLAGS,
				...(options.flags ?? []),
				`--window-size=${width},${height}`,
				`--user-data-dir=${profileDir}`,
				'about:blank',
			],
			// Its own process group, so that close() ends the renderers and helpers too.
			{ stdio: ['ignore', 'ignore', 'pipe'], detached: true },
		);
		let stderr = '';
		const endpoint = await new Promise<string>((resolve, reject) => {
			const timer = setTimeout(
				() => fail(new Error(`chromium did not report its DevTools URL within ${timeoutMs} ms`)),
				timeoutMs,
			);
			const fail = (error: Error) => {
				clearTimeout(timer);
				killGroup(child, 'SIGKILL');
				rmSync(profileDir, { recursive: true, force: true });
				reject(new Error(`${error.message}\n--- chromium stderr ---\n${stderr.slice(-4000)}`));
			};
			child.once('error', fail);
			child.once('exit', (code, signal) =>
				fail(new Error(`chromium exited early (code ${code}, signal ${signal})`)),
			);
			child.stderr?.setEncoding('utf8');
			child.stderr?.on('data', (chunk: string) => {
				stderr += chunk;
				const match = /DevTools listening on (ws:\/\/\S+)/.exec(stderr);
				if (match) {
					clearTimeout(timer);
					child.removeAllListeners('exit');
					child.removeAllListeners('error');
					resolve(match[1]);
				}
			});
		});
		child.on('error', () => undefined);
		// Keep draining stderr so chromium never blocks on a full pipe.
		child.stderr?.on('data', (chunk: string) => {
			stderr = (stderr + chunk).slice(-20_000);
		});

		const socket = new WebSocket(endpoint);
		const failure = await withTimeout(
			new Promise<void>((resolve, reject) => {
				socket.addEventListener('open', () => resolve(), { once: true });
				socket.addEventListener('error', () => reject(new Error('WebSocket error')), {
					once: true,
				});
			}),
			timeoutMs,
			'connecting to the DevTools WebSocket',
		).then(
			() => undefined,
			(error: unknown) => error as Error,
		);
		if (failure) {
			killGroup(child, 'SIGKILL');
			rmSync(profileDir, { recursive: true, force: true });
			throw failure;
		}
		return new Browser(child, socket, profileDir, () => stderr);
	}

	send(
		method: string,
		params: Record<string, unknown> = {},
		sessionId?: string,
		timeoutMs = 15_000,
	): Promise<Record<string, unknown>> {
		if (this.socket.readyState !== WebSocket.OPEN) {
			return Promise.reject(new CdpError(`${method}: the DevTools connection is not open`));
		}
		const id = this.nextId++;
		return new Promise((resolve, reject) => {
			const timer = setTimeout(() => {
				this.pending.delete(id);
				reject(new CdpError(`${method}: no answer within ${timeoutMs} ms`));
			}, timeoutMs);
			this.pending.set(id, { resolve, reject, timer, method });
			this.socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
		});
	}

	/** Resolves with the first event of `method` (on `sessionId`) matching `predicate`. */
	waitForEvent(
		method: string,
		options: {
			sessionId?: string;
			timeoutMs?: number;
			predicate?: (params: Record<string, unknown>) => boolean;
		} = {},
	): Promise<Record<string, unknown>> {
		const timeoutMs = options.timeoutMs ?? 15_000;
		return new Promise((resolve, reject) => {
			const listener = (message: CdpMessage) => {
				if (message.method !== method) return;
				if (options.sessionId && message.sessionId !== options.sessionId) return;
				if (options.predicate && !options.predicate(message.params ?? {})) return;
				this.listeners.delete(listener);
				clearTimeout(timer);
				resolve(message.params ?? {});
			};
			const timer = setTimeout(() => {
				this.listeners.delete(listener);
				reject(new CdpError(`no ${method} event within ${timeoutMs} ms`));
			}, timeoutMs);
			this.listeners.add(listener);
		});
	}

	onEvent(listener: (method: string, params: Record<string, unknown>) => void): void {
		this.listeners.add((message) => {
			if (message.method) listener(message.method, message.params ?? {});
		});
	}

	/** A new tab, attached in flat mode, with Page and Runtime enabled. */
	async newPage(): Promise<BrowserPage> {
		const { targetId } = (await this.send('Target.createTarget', { url: 'about:blank' })) as {
			targetId: string;
		};
		const { sessionId } = (await this.send('Target.attachToTarget', {
			targetId,
			flatten: true,
		})) as { sessionId: string };
		const page = new BrowserPage(this, sessionId);
		await page.send('Page.enable');
		await page.send('Runtime.enable');
		return page;
	}

	/** Closes the browser, then ends its process group (SIGTERM, SIGKILL after 5 s); removes the profile. */
	close(): Promise<void> {
		this.closed ??= (async () => {
			await this.send('Browser.close', {}, undefined, 3000).catch(() => undefined);
			this.socket.close();
			if (!(await exited(this.child, 3000))) {
				killGroup(this.child, 'SIGTERM');
				if (!(await exited(this.child, 5000))) {
					killGroup(this.child, 'SIGKILL');
					await exited(this.child, 5000);
				}
			}
			// Helpers of the group (zygote, crashpad) may outlive the main process by a moment.
			killGroup(this.child, 'SIGKILL');
			this.failAll('the browser was closed');
			rmSync(this.profileDir, { recursive: true, force: true });
		})();
		return this.closed;
	}

	private failAll(reason: string) {
		for (const [id, waiting] of this.pending) {
			clearTimeout(waiting.timer);
			waiting.reject(new CdpError(`${waiting.method}: ${reason}`));
			this.pending.delete(id);
		}
	}
}

export class BrowserPage {
	constructor(
		readonly browser: Browser,
		readonly sessionId: string,
	) {}

	send(method: string, params: Record<string, unknown> = {}, timeoutMs?: number) {
		return this.browser.send(method, params, this.sessionId, timeoutMs);
	}

	/** Renders the page at this size, whatever the window's. */
	async setViewport(width: number, height: number): Promise<void> {
		await this.send('Emulation.setDeviceMetricsOverride', {
			width,
			height,
			deviceScaleFactor: 1,
			mobile: false,
		});
	}

	/** Navigates and waits for the load event. */
	async goto(url: string, timeoutMs = 15_000): Promise<void> {
		const loaded = this.browser.waitForEvent('Page.loadEventFired', {
			sessionId: this.sessionId,
			timeoutMs,
		});
		const result = (await this.send('Page.navigate', { url })) as { errorText?: string };
		if (result.errorText) throw new CdpError(`navigating to ${url}: ${result.errorText}`);
		await loaded;
	}

	async reload(timeoutMs = 15_000): Promise<void> {
		const loaded = this.browser.waitForEvent('Page.loadEventFired', {
			sessionId: this.sessionId,
			timeoutMs,
		});
		await this.send('Page.reload', { ignoreCache: true });
		await loaded;
	}

	/** The text of the first element `selector` matches; null when none does. */
	async text(selector: string): Promise<string | null> {
		return await this.evaluate<string | null>(
			`document.querySelector(${JSON.stringify(selector)})?.textContent ?? null`,
		);
	}

	/** Evaluates an expression in the page (awaiting a promise) and returns its JSON value. */
	async evaluate<T = unknown>(expression: string, timeoutMs = 15_000): Promise<T> {
		const result = (await this.send(
			'Runtime.evaluate',
			{ expression, awaitPromise: true, returnByValue: true, userGesture: true },
			timeoutMs,
		)) as {
			result: { value?: unknown };
			exceptionDetails?: { text: string; exception?: { description?: string } };
		};
		if (result.exceptionDetails) {
			throw new CdpError(
				`evaluating ${expression.slice(0, 80)}: ${result.exceptionDetails.exception?.description ?? result.exceptionDetails.text}`,
			);
		}
		return result.result.value as T;
	}

	/** Polls `expression` until it is truthy; returns its value. */
	async waitFor<T = unknown>(
		expression: string,
		options: { timeoutMs?: number; what?: string } = {},
	): Promise<T> {
		const deadline = Date.now() + (options.timeoutMs ?? 10_000);
		for (;;) {
			const value = await this.evaluate<T>(expression);
			if (value) return value;
			if (Date.now() > deadline) {
				throw new CdpError(`timed out waiting for ${options.what ?? expression}`);
			}
			await new Promise((resolve) => setTimeout(resolve, 50));
		}
	}

	/** A real mouse click at the middle of the element (scrolled into view first). */
	async click(selector: string): Promise<void> {
		const box = await this.waitFor<{ x: number; y: number } | null>(
			`(() => { const node = document.querySelector(${JSON.stringify(selector)});
				if (!node || node.disabled) return null;
				node.scrollIntoView({ block: 'center' });
				const rect = node.getBoundingClientRect();
				if (!rect.width || !rect.height) return null;
				return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 }; })()`,
			{ what: `a visible, enabled ${selector}` },
		);
		if (!box) throw new CdpError(`no ${selector}`);
		for (const type of ['mouseMoved', 'mousePressed', 'mouseReleased']) {
			await this.send('Input.dispatchMouseEvent', {
				type,
				x: box.x,
				y: box.y,
				button: 'left',
				clickCount: type === 'mouseMoved' ? 0 : 1,
			});
		}
	}

	/** Focuses the field, clears it and types `text` as keyboard input. */
	async type(selector: string, text: string): Promise<void> {
		await this.waitFor(
			`(() => { const node = document.querySelector(${JSON.stringify(selector)});
				if (!node) return false; node.focus(); node.select && node.select(); return document.activeElement === node; })()`,
			{ what: `focus on ${selector}` },
		);
		await this.send('Input.insertText', { text });
	}

	/** A PNG of the viewport (or the whole page), written to `path`. */
	async screenshot(path: string, options: { fullPage?: boolean } = {}): Promise<void> {
		const { data } = (await this.send(
			'Page.captureScreenshot',
			{ format: 'png', captureBeyondViewport: options.fullPage ?? false },
			30_000,
		)) as { data: string };
		writeFileSync(path, Buffer.from(data, 'base64'));
	}
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
	if (child.pid === undefined) return;
	try {
		process.kill(-child.pid, signal);
	} catch {
		// The group is gone already.
	}
}

function exited(child: ChildProcess, timeoutMs: number): Promise<boolean> {
	if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
	return new Promise((resolve) => {
		const timer = setTimeout(() => {
			child.off('exit', onExit);
			resolve(false);
		}, timeoutMs);
		const onExit = () => {
			clearTimeout(timer);
			resolve(true);
		};
		child.once('exit', onExit);
	});
}

function withTimeout<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	return Promise.race([
		promise,
		new Promise<never>((_, reject) => {
			timer = setTimeout(
				() => reject(new Error(`${what}: no answer within ${timeoutMs} ms`)),
				timeoutMs,
			);
		}),
	]).finally(() => clearTimeout(timer));
}
