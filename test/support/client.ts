import { randomBytes } from 'crypto';
import nock from 'nock';

import {
	createAutomationClient,
	createShortLinkClient,
	createWorkspaceClient,
	type ClientOptions,
	type RetryInfo,
} from '../../src/client';
import { fetchTransport } from '../../dev/transports/fetch';

// nock patches Node's http for the whole worker: undone when the importing test file ends (test/nodes/quiet.test.ts).
afterAll(() => nock.restore());

export const BASE = 'http://multichannel.test';
/** A made-up key of the given kind, fresh for each test run. */
export const testKey = (prefix: 'mcw' | 'mcl' | 'mca' | 'whsec') =>
	`${prefix}_${randomBytes(12).toString('hex')}`;
export const KEY = testKey('mcw');
export const LINK_KEY = testKey('mcl');
export const AUTOMATION_KEY = testKey('mca');

export interface Recorded {
	method: string;
	path: string;
	headers: Record<string, string | string[] | undefined>;
	body: string;
}

/** Clients on the fetch transport, with sleeps recorded instead of waited. */
export function clients(options: Partial<ClientOptions> = {}) {
	const waits: number[] = [];
	const retries: RetryInfo[] = [];
	const config: ClientOptions = {
		baseUrl: BASE,
		sleep: async (ms) => {
			waits.push(ms);
		},
		random: () => 0.5,
		onRetry: (info) => retries.push(info),
		...options,
	};
	return {
		workspace: createWorkspaceClient(fetchTransport(KEY), config),
		shortLink: createShortLinkClient(fetchTransport(LINK_KEY), config),
		automation: createAutomationClient(fetchTransport(AUTOMATION_KEY), config),
		waits,
		retries,
	};
}

/** Replies with `status`/`body` and records the exact request that came in. */
export function record(
	scope: nock.Interceptor,
	status: number,
	body?: unknown,
	headers: Record<string, string> = {},
): Recorded[] {
	const requests: Recorded[] = [];
	scope.reply(function (this: nock.ReplyFnContext, uri: string, requestBody: unknown) {
		requests.push({
			method: this.req.method,
			path: uri,
			headers: this.req.headers,
			body: typeof requestBody === 'string' ? requestBody : JSON.stringify(requestBody),
		});
		return [
			status,
			body === undefined ? '' : JSON.stringify(body),
			{ 'Content-Type': 'application/json', ...headers },
		];
	});
	return requests;
}

/** The service as nock answers it (at BASE). */
export function mockService() {
	return nock(BASE);
}

export function resetNock() {
	nock.cleanAll();
	nock.disableNetConnect();
}

/** A describe block answered by nock alone: no real connection, and every mock used by the end of each test. */
export function nockOnly(): void {
	beforeAll(() => nock.disableNetConnect());
	afterEach(() => {
		const pending = nock.pendingMocks();
		nock.cleanAll();
		expect(pending).toEqual([]);
	});
	afterAll(() => nock.enableNetConnect());
}

/** A test file against the sandbox: connections to loopback go through, anything else must be answered by nock. */
export function loopbackOrNock(): void {
	beforeAll(() => {
		nock.disableNetConnect();
		nock.enableNetConnect(/^127\.0\.0\.1:/);
	});
	afterAll(() => {
		nock.cleanAll();
		nock.enableNetConnect();
	});
}
