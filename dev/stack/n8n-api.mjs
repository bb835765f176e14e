// HTTP clients of the local stack: n8n's REST and public APIs, and the sandbox's API. Plain Node (never shipped).
import { setTimeout as sleep } from 'node:timers/promises';

import { Agent, fetch } from 'undici';

import { waitForHttp } from './processes.mjs';

/** The owner account set up on n8n's first start (a local instance on loopback only). */
export const OWNER = {
	email: 'owner@multichannel.local',
	password: 'Multichannel-Sandbox-1',
	firstName: 'Sandbox',
	lastName: 'Owner',
};

/**
 * A new connection for every call. n8n closes an idle connection after 5 s; under load (two cores, two n8n lines'
 * stacks) a kept-alive connection was reused just as n8n closed it, and the call failed with "other side closed"
 * (seen in send-and-wait.test.mjs on the shared stack). A loopback connect costs nothing beside that.
 */
const ONE_CONNECTION_PER_CALL = new Agent({ pipelining: 0 });

/** One browser id for every REST call: n8n binds its session cookie to the `browser-id` header. */
const BROWSER_ID = 'multichannel-e2e';

/** n8n's REST API (session cookie) and public API (API key) on one base URL. */
export class N8nClient {
	constructor(baseUrl) {
		this.baseUrl = baseUrl;
		this.cookie = undefined;
		this.apiKey = undefined;
	}

	/** One call; while n8n answers 503 (its database check failed: "Database is not ready!") it is tried again. */
	async request(method, path, { body, headers = {}, expect } = {}) {
		let response;
		for (let attempt = 1; ; attempt++) {
			response = await fetch(`${this.baseUrl}${path}`, {
				method,
				headers: {
					accept: 'application/json',
					...(body === undefined ? {} : { 'content-type': 'application/json' }),
					...headers,
				},
				body: body === undefined ? undefined : JSON.stringify(body),
				signal: AbortSignal.timeout(60_000),
				dispatcher: ONE_CONNECTION_PER_CALL,
			});
			if (response.status !== 503 || attempt === 30) break;
			await response.body?.cancel();
			await sleep(1000);
		}
		const text = await response.text();
		let json;
		try {
			json = text ? JSON.parse(text) : undefined;
		} catch {
			json = undefined;
		}
		if (expect !== undefined && response.status !== expect) {
			throw new Error(
				`${method} ${path}: expected ${expect}, got ${response.status} ${text.slice(0, 1000)}`,
			);
		}
		return { status: response.status, json, text, headers: response.headers };
	}

	/** REST (`/rest/...`) with the owner's session. */
	async rest(method, path, body, expect = 200) {
		const response = await this.request(method, `/rest${path}`, {
			body,
			expect,
			headers: { 'browser-id': BROWSER_ID, ...(this.cookie ? { cookie: this.cookie } : {}) },
		});
		const setCookie = response.headers.get('set-cookie');
		const auth = setCookie && /n8n-auth=[^;]+/.exec(setCookie);
		if (auth) this.cookie = auth[0];
		return response.json?.data ?? response.json;
	}

	/** Public API (`/api/v1/...`) with the API key. */
	async api(method, path, body, expect = 200) {
		const response = await this.request(method, `/api/v1${path}`, {
			body,
			expect,
			headers: { 'x-n8n-api-key': this.apiKey },
		});
		return response.json;
	}

	async waitUntilReady(service, timeoutMs) {
		await waitForHttp(service, `${this.baseUrl}/healthz/readiness`, timeoutMs);
	}

	/** Sets the owner up on a fresh instance, or logs in with it. */
	async ownerSession() {
		const settings = await this.rest('GET', '/settings');
		if (settings?.userManagement?.showSetupOnFirstLoad) {
			await this.rest('POST', '/owner/setup', OWNER);
			return 'created';
		}
		await this.rest('POST', '/login', {
			emailOrLdapLoginId: OWNER.email,
			password: OWNER.password,
		});
		return 'logged in';
	}

	/** Uses the saved API key if n8n still accepts it, otherwise creates one with every scope the owner has. */
	async ensureApiKey(saved) {
		if (saved) {
			this.apiKey = saved;
			const probe = await this.request('GET', '/api/v1/workflows?limit=1', {
				headers: { 'x-n8n-api-key': saved },
			});
			if (probe.status === 200) return { apiKey: saved, created: false };
		}
		const scopes = await this.rest('GET', '/api-keys/scopes');
		const created = await this.rest('POST', '/api-keys', {
			label: `npm start ${new Date().toISOString().slice(0, 19).replace('T', ' ')}`,
			scopes,
			expiresAt: null,
		});
		this.apiKey = created.rawApiKey;
		if (!this.apiKey)
			throw new Error(`n8n returned no API key: ${JSON.stringify(created).slice(0, 300)}`);
		return { apiKey: this.apiKey, created: true };
	}

	async listAll(path) {
		const separator = path.includes('?') ? '&' : '?';
		return await collectPages((cursor) =>
			this.api('GET', `${path}${separator}limit=250${cursor ? `&cursor=${cursor}` : ''}`),
		);
	}
}

/** Every entry of a cursor-paged list: `{ data, nextCursor }` pages, as n8n's public API and the sandbox answer. */
export async function collectPages(fetchPage) {
	const all = [];
	let cursor;
	do {
		const page = await fetchPage(cursor);
		all.push(...page.data);
		cursor = page.nextCursor;
	} while (cursor);
	return all;
}

/** The sandbox's API with one of its keys (for the stack's own set-up and the tests' checks). */
export async function sandboxCall(baseUrl, key, method, path, body, expect) {
	const response = await fetch(`${baseUrl}${path}`, {
		method,
		headers: {
			authorization: `Bearer ${key}`,
			accept: 'application/json',
			...(body === undefined ? {} : { 'content-type': 'application/json' }),
		},
		body: body === undefined ? undefined : JSON.stringify(body),
		signal: AbortSignal.timeout(30_000),
	});
	const text = await response.text();
	const json = text ? JSON.parse(text) : undefined;
	const ok = expect === undefined ? response.ok : response.status === expect;
	if (!ok) throw new Error(`sandbox ${method} ${path}: ${response.status} ${text.slice(0, 500)}`);
	return json;
}
