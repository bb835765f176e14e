// A minimal Chrome DevTools Protocol client (the same approach as dev/browser/cdp.ts, in plain JS so that
// the e2e scripts run without a TypeScript step): Debian's chromium headless, CDP over undici's WebSocket.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { WebSocket } from 'undici';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchBrowser({ width = 1440, height = 900, timeoutMs = 20_000 } = {}) {
	const profileDir = mkdtempSync(join(tmpdir(), 'cdp-profile-'));
	const child = spawn(
		CHROMIUM_PATH,
		[
			'--headless',
			'--no-sandbox',
			'--disable-gpu',
			'--no-first-run',
			'--no-default-browser-check',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
			'--disable-dev-shm-usage',
			'--hide-scrollbars',
			'--remote-debugging-port=0',
			`--window-size=${width},${height}`,
			`--user-data-dir=${profileDir}`,
			'about:blank',
		],
		{ stdio: ['ignore', 'ignore', 'pipe'], detached: true },
	);
	const killGroup = (signal) => {
		try {
			process.kill(-child.pid, signal);
		} catch {
			// Gone already.
		}
	};
	let stderr = '';
	child.stderr.setEncoding('utf8');
	child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-20_000)));
	const deadline = Date.now() + timeoutMs;
	let endpoint;
	while (!(endpoint = /DevTools listening on (ws:\/\/\S+)/.exec(stderr)?.[1])) {
		if (child.exitCode !== null || Date.now() > deadline) {
			killGroup('SIGKILL');
			rmSync(profileDir, { recursive: true, force: true });
			throw new Error(`chromium did not start:\n${stderr.slice(-3000)}`);
		}
		await sleep(50);
	}
	const socket = new WebSocket(endpoint);
	await new Promise((resolve, reject) => {
		socket.addEventListener('open', resolve, { once: true });
		socket.addEventListener('error', () => reject(new Error('DevTools WebSocket error')), {
			once: true,
		});
	});
	let nextId = 1;
	const pending = new Map();
	const listeners = new Set();
	socket.addEventListener('message', (event) => {
		const message = JSON.parse(String(event.data));
		if (message.id !== undefined && pending.has(message.id)) {
			const { resolve, reject, timer, method } = pending.get(message.id);
			pending.delete(message.id);
			clearTimeout(timer);
			if (message.error) reject(new Error(`${method}: ${message.error.message}`));
			else resolve(message.result ?? {});
		} else if (message.method) {
			for (const listener of listeners) listener(message);
		}
	});
	const send = (method, params = {}, sessionId, ms = 30_000) =>
		new Promise((resolve, reject) => {
			const id = nextId++;
			const timer = setTimeout(() => {
				pending.delete(id);
				reject(new Error(`${method}: no answer within ${ms} ms`));
			}, ms);
			pending.set(id, { resolve, reject, timer, method });
			socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
		});

	async function newPage() {
		const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
		const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
		const call = (method, params, ms) => send(method, params, sessionId, ms);
		await call('Page.enable');
		await call('Runtime.enable');
		await call('Emulation.setDeviceMetricsOverride', {
			width,
			height,
			deviceScaleFactor: 1,
			mobile: false,
		});
		const evaluate = async (expression) => {
			const result = await call('Runtime.evaluate', {
				expression,
				awaitPromise: true,
				returnByValue: true,
			});
			if (result.exceptionDetails) {
				throw new Error(
					`evaluate: ${result.exceptionDetails.exception?.description ?? result.exceptionDetails.text}`,
				);
			}
			return result.result.value;
		};
		return {
			call,
			evaluate,
			async goto(url) {
				const loaded = new Promise((resolve) => {
					const listener = (message) => {
						if (message.method === 'Page.loadEventFired' && message.sessionId === sessionId) {
							listeners.delete(listener);
							resolve();
						}
					};
					listeners.add(listener);
				});
				await call('Page.navigate', { url });
				await Promise.race([loaded, sleep(30_000)]);
			},
			async waitFor(expression, what, ms = 30_000) {
				const until = Date.now() + ms;
				for (;;) {
					const value = await evaluate(expression).catch(() => undefined);
					if (value) return value;
					if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
					await sleep(200);
				}
			},
			async screenshot(path) {
				const { data } = await call('Page.captureScreenshot', { format: 'png' });
				writeFileSync(path, Buffer.from(data, 'base64'));
			},
		};
	}

	async function close() {
		await send('Browser.close', {}, undefined, 3000).catch(() => undefined);
		socket.close();
		await sleep(500);
		killGroup('SIGKILL');
		rmSync(profileDir, { recursive: true, force: true });
	}

	return { newPage, close };
}
