/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-globals -- made-up keys, which the tests look for in every output; test code runs in plain Node, never inside n8n */
/**
 * The Multichannel Short Link node, run as real workflows (Manual Trigger → Items → node) through n8n-core:
 * every operation against the sandbox over loopback, checking what comes out and the state the sandbox is
 * left in; one nock test pins the wire format of Create.
 */
import { DateTime } from 'luxon';
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { clientsFor, raw } from '../support/sandbox';
import { loopbackOrNock, nockOnly } from '../support/client';
import { runNode, runListSearch, type NodeUnderTest } from '../../dev/harness';
import { byId, failure, useSandboxNode } from '../support/nodes';

// nock patches Node's http for the whole worker: undone when this file ends (test/nodes/quiet.test.ts).
afterAll(() => nock.restore());

const NODE_TYPE = 'n8n-nodes-multichannel.multichannelShortLink';
const NODE_NAME = 'Short Link';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:126.0) Gecko/20100101 Firefox/126.0';

const suite = useSandboxNode('multichannelShortLinkApi');
const { run } = suite;

function linkNode(parameters: IDataObject, extra: Partial<NodeUnderTest> = {}): NodeUnderTest {
	return { type: NODE_TYPE, name: NODE_NAME, parameters, ...extra } as NodeUnderTest;
}

const linksInSandbox = () => suite.sandbox.store.all('links');

loopbackOrNock();

describe('Link → Create (sandbox)', () => {
	test('several items: one link each, paired; each short URL redirects to its destination', async () => {
		const result = await run(
			linkNode({
				resource: 'link',
				operation: 'create',
				url: '={{ $json.url }}',
				additionalFields: {
					code: '={{ $json.code }}',
					title: '={{ $json.title }}',
					tags: '=promo, {{ $json.season }}',
					expiresAt: '2999-01-01T00:00:00Z',
				},
			}),
			{
				items: [
					{
						url: 'https://example.com/spring',
						code: 'sl-spring',
						title: 'Spring',
						season: 'spring',
					},
					{
						url: 'https://example.com/autumn?x=1',
						code: 'sl-autumn',
						title: 'Autumn',
						season: 'autumn',
					},
				],
			},
		);

		expect(result.error).toBeUndefined();
		const output = result.output(NODE_NAME);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(output[0].json).toMatchObject({
			id: expect.stringMatching(/^lnk_/),
			code: 'sl-spring',
			shortUrl: `${suite.sandbox.baseUrl}/sl-spring`,
			url: 'https://example.com/spring',
			title: 'Spring',
			tags: ['promo', 'spring'],
			expiresAt: '2999-01-01T00:00:00.000Z',
			clickCount: 0,
		});
		expect(output[1].json).toMatchObject({ code: 'sl-autumn', tags: ['promo', 'autumn'] });

		for (const [code, location] of [
			['sl-spring', 'https://example.com/spring'],
			['sl-autumn', 'https://example.com/autumn?x=1'],
		]) {
			expect(linksInSandbox().filter((link) => link.code === code)).toHaveLength(1);
			const visit = await raw(suite.sandbox.baseUrl, 'HEAD', `/${code}`);
			expect(visit.status).toBe(302);
			expect(visit.headers.location).toBe(location);
		}
	});

	test('re-running the same item of the same execution does not create a second link', async () => {
		const node = linkNode({
			resource: 'link',
			operation: 'create',
			url: 'https://example.com/once',
			additionalFields: {},
		});
		const before = linksInSandbox().length;

		const first = await run(node);
		const again = await run(node);

		expect(again.json(NODE_NAME)).toEqual(first.json(NODE_NAME));
		expect(linksInSandbox().length).toBe(before + 1);
	});

	test('a taken code fails that item only under "continue on fail"; an invalid URL is an input error', async () => {
		const before = linksInSandbox().length;
		const result = await run(
			linkNode(
				{
					resource: 'link',
					operation: 'create',
					url: '={{ $json.url }}',
					additionalFields: { code: '={{ $json.code }}' },
				},
				{ onError: 'continueRegularOutput' },
			),
			{
				items: [
					{ url: 'https://example.com/ok', code: 'sl-fresh' },
					{ url: 'https://example.com/dup', code: 'sl-spring' },
					{ url: 'not a url', code: 'sl-bad-url' },
				],
			},
		);

		expect(result.run.status).toBe('success');
		const [ok, taken, invalid] = result.output(NODE_NAME);
		expect(ok).toMatchObject({ json: { code: 'sl-fresh' }, pairedItem: { item: 0 } });
		expect(taken.pairedItem).toEqual({ item: 1 });
		expect(taken.json).toMatchObject({
			error: expect.stringMatching(
				/refused the request \[item 1\]: The short code "sl-spring" is already taken/,
			),
			details: { httpCode: '409', code: 'code_taken', itemIndex: 1 },
		});
		expect(invalid.pairedItem).toEqual({ item: 2 });
		expect(invalid.json.error).toMatch(/^Invalid value for "Destination URL" \[item 2\]/);
		expect(linksInSandbox().length).toBe(before + 1);
	});
});

describe('Link → Get, Get Many, Update, Delete (sandbox)', () => {
	let link: { id: string };

	beforeAll(async () => {
		const { shortLink } = clientsFor(suite.sandbox.baseUrl, suite.keys);
		link = await shortLink.links.create({
			body: { url: 'https://example.com/crud', code: 'sl-crud', title: 'CRUD', tags: ['crud'] },
		});
		// Enough links under one tag that Return All needs two pages of 100.
		for (let index = 0; index < 105; index++) {
			await shortLink.links.create({
				body: { url: `https://example.com/bulk/${index}`, tags: ['bulk'] },
			});
		}
	});

	test('Get by ID and from the list gives the link', async () => {
		const byIdResult = await run(
			linkNode({ resource: 'link', operation: 'get', linkId: byId('={{ $json.id }}') }),
			{ items: [{ id: link.id }] },
		);
		const fromList = await run(
			linkNode({
				resource: 'link',
				operation: 'get',
				linkId: { __rl: true, mode: 'list', value: link.id, cachedResultName: 'CRUD' },
			}),
		);

		expect(byIdResult.output(NODE_NAME)).toEqual([
			{ json: expect.objectContaining({ id: link.id, code: 'sl-crud' }), pairedItem: { item: 0 } },
		]);
		expect(fromList.json(NODE_NAME)).toEqual(byIdResult.json(NODE_NAME));
	});

	test('Get Many: Return All follows the cursor across pages; Limit and filters narrow it', async () => {
		const all = await run(
			linkNode({
				resource: 'link',
				operation: 'getAll',
				returnAll: true,
				filters: { tag: 'bulk' },
			}),
		);
		const limited = await run(
			linkNode({ resource: 'link', operation: 'getAll', returnAll: false, limit: 3, filters: {} }),
		);
		const searched = await run(
			linkNode({
				resource: 'link',
				operation: 'getAll',
				returnAll: true,
				filters: { search: 'CRUD' },
			}),
		);

		const bulk = all.json(NODE_NAME);
		expect(bulk).toHaveLength(105);
		expect(new Set(bulk.map((item) => item.id)).size).toBe(105);
		expect(bulk.every((item) => (item.tags as string[]).includes('bulk'))).toBe(true);
		expect(all.output(NODE_NAME).every((item) => item.pairedItem !== undefined)).toBe(true);
		expect(limited.json(NODE_NAME)).toHaveLength(3);
		expect(searched.json(NODE_NAME).map((item) => item.id)).toEqual([link.id]);
	});

	test('"From list" searches the links and pages with the cursor', async () => {
		const locator = {
			...linkNode({ resource: 'link', operation: 'get' }),
			method: 'searchLinks',
		};
		const credentials = {
			multichannelShortLinkApi: { baseUrl: suite.sandbox.baseUrl, apiKey: suite.keys.shortLink },
		};

		const found = await runListSearch({ ...locator, filter: 'crud' }, { credentials });
		const firstPage = await runListSearch({ ...locator, filter: 'bulk' }, { credentials });
		const secondPage = await runListSearch(
			{ ...locator, filter: 'bulk', paginationToken: firstPage.paginationToken as string },
			{ credentials },
		);

		expect(found).toEqual({
			results: [
				{
					name: `CRUD (${suite.sandbox.baseUrl}/sl-crud)`,
					value: link.id,
					url: `${suite.sandbox.baseUrl}/sl-crud`,
				},
			],
		});
		expect(firstPage.results).toHaveLength(50);
		expect(firstPage.paginationToken).toEqual(expect.any(String));
		expect(secondPage.results).toHaveLength(50);
		expect(secondPage.results[0].value).not.toBe(firstPage.results[0].value);
	});

	test('Update changes destination, title, tags and expiry; the short URL redirects to the new destination', async () => {
		await run(
			linkNode({
				resource: 'link',
				operation: 'update',
				linkId: byId(link.id),
				updateFields: { expiresAt: '2999-06-01T12:00:00+02:00' },
			}),
		);
		const result = await run(
			linkNode({
				resource: 'link',
				operation: 'update',
				linkId: byId(link.id),
				updateFields: {
					url: 'https://example.com/crud-v2',
					title: '',
					tags: 'a, b',
					removeExpiry: true,
				},
			}),
		);

		expect(result.output(NODE_NAME)).toEqual([
			{
				json: expect.objectContaining({
					id: link.id,
					url: 'https://example.com/crud-v2',
					title: null,
					tags: ['a', 'b'],
					expiresAt: null,
				}),
				pairedItem: { item: 0 },
			},
		]);
		expect(suite.sandbox.store.find('links', suite.sandbox.workspaceId, link.id)).toMatchObject({
			url: 'https://example.com/crud-v2',
			title: null,
			tags: ['a', 'b'],
			expiresAt: null,
		});
		const visit = await raw(suite.sandbox.baseUrl, 'HEAD', '/sl-crud');
		expect(visit.headers.location).toBe('https://example.com/crud-v2');
	});

	test('Update with no fields is an input error, and nothing is sent', async () => {
		const result = await run(
			linkNode({
				resource: 'link',
				operation: 'update',
				linkId: byId(link.id),
				updateFields: {},
			}),
		);

		expect(failure(result)).toMatchObject({
			name: 'NodeOperationError',
			message: 'Nothing to update [item 0]: add at least one field under "Update Fields"',
		});
	});

	test('Delete removes the link: its short URL answers 404 and Get says "not found"', async () => {
		const { shortLink } = clientsFor(suite.sandbox.baseUrl, suite.keys);
		const doomed = await shortLink.links.create({
			body: { url: 'https://example.com/doomed', code: 'sl-doomed' },
		});

		const result = await run(
			linkNode({ resource: 'link', operation: 'delete', linkId: byId(doomed.id) }),
		);
		const after = await run(
			linkNode({ resource: 'link', operation: 'get', linkId: byId(doomed.id) }),
		);

		expect(result.output(NODE_NAME)).toEqual([
			{ json: { id: doomed.id, deleted: true }, pairedItem: { item: 0 } },
		]);
		expect(suite.sandbox.store.find('links', suite.sandbox.workspaceId, doomed.id)).toBeUndefined();
		expect((await raw(suite.sandbox.baseUrl, 'GET', '/sl-doomed')).status).toBe(404);
		expect(failure(after)).toMatchObject({
			name: 'NodeApiError',
			httpCode: '404',
			message: 'The link was not found [item 0]',
		});
	});
});

describe('Click → Get Many (sandbox)', () => {
	test('lists the visits of a link, without bots unless asked, and since a time', async () => {
		const { shortLink } = clientsFor(suite.sandbox.baseUrl, suite.keys);
		const link = await shortLink.links.create({
			body: { url: 'https://example.com/clicked', code: 'sl-clicked' },
		});
		await raw(suite.sandbox.baseUrl, 'GET', '/sl-clicked', {
			headers: {
				'user-agent': FIREFOX,
				referer: 'https://news.example.org/',
				'cf-ipcountry': 'fr',
			},
		});
		await raw(suite.sandbox.baseUrl, 'GET', '/sl-clicked', { headers: { 'user-agent': FIREFOX } });
		await raw(suite.sandbox.baseUrl, 'GET', '/sl-clicked', {
			headers: { 'user-agent': GOOGLEBOT },
		});

		const clicks = (parameters: IDataObject) =>
			run(
				linkNode({
					resource: 'click',
					operation: 'getAll',
					linkId: byId(link.id),
					returnAll: true,
					...parameters,
				}),
			);
		const humans = await clicks({ filters: {} });
		const everyone = await clicks({ filters: { includeBots: true } });
		const future = await clicks({ filters: { since: '2999-01-01T00:00:00Z', includeBots: true } });
		const limited = await clicks({ returnAll: false, limit: 1, filters: { includeBots: true } });

		expect(humans.json(NODE_NAME)).toHaveLength(2);
		expect(humans.json(NODE_NAME)).toContainEqual(
			expect.objectContaining({
				linkId: link.id,
				referrer: 'https://news.example.org/',
				country: 'FR',
				browser: 'Firefox',
				bot: false,
			}),
		);
		expect(everyone.json(NODE_NAME)).toHaveLength(3);
		expect(everyone.json(NODE_NAME).filter((click) => click.bot)).toHaveLength(1);
		expect(future.json(NODE_NAME)).toEqual([]);
		expect(limited.json(NODE_NAME)).toHaveLength(1);
	});

	test('an unknown link is "not found" for that item', async () => {
		const result = await run(
			linkNode(
				{
					resource: 'click',
					operation: 'getAll',
					linkId: byId('lnk_missing'),
					returnAll: true,
					filters: {},
				},
				{ onError: 'continueRegularOutput' },
			),
		);
		expect(result.output(NODE_NAME)).toEqual([
			{
				json: expect.objectContaining({ error: 'The link was not found [item 0]' }),
				pairedItem: { item: 0 },
			},
		]);
	});
});

describe('keys the service refuses (sandbox)', () => {
	const getMany = linkNode({ resource: 'link', operation: 'getAll', returnAll: true, filters: {} });

	test('401: an unknown key is rejected with where to get one', async () => {
		const result = await run(getMany, { apiKey: 'mcl_not_a_real_key_0000000000' });

		expect(failure(result)).toMatchObject({
			name: 'NodeApiError',
			httpCode: '401',
			message: `The short-link API key was rejected: check it in the credential, or generate a new one in the Multichannel console at ${suite.sandbox.baseUrl}/user/api`,
		});
	});

	test('403: a workspace key on the short-link credential is of the wrong kind', async () => {
		const result = await run(getMany, { apiKey: suite.keys.workspace });

		expect(failure(result)).toMatchObject({
			name: 'NodeApiError',
			httpCode: '403',
			message:
				'The API key is not allowed to do this: it lacks the links:read scope, or it is not a short-link key',
		});
	});

	test('with "continue on fail" every item gets its own 401 error item', async () => {
		const result = await run(
			{ ...getMany, onError: 'continueRegularOutput' },
			{ apiKey: 'mcl_not_a_real_key_0000000000', items: [{}, {}] },
		);

		expect(result.run.status).toBe('success');
		expect(result.output(NODE_NAME).map((item) => [item.pairedItem, item.json.details])).toEqual([
			[{ item: 0 }, expect.objectContaining({ httpCode: '401', itemIndex: 0 })],
			[{ item: 1 }, expect.objectContaining({ httpCode: '401', itemIndex: 1 })],
		]);
	});
});

describe('wire format (nock)', () => {
	const BASE_URL = 'http://short-links.example.test';
	const API_KEY = 'mcl_live_9b8c7d6e5f4a3b2c';

	nockOnly();

	test('Create sends POST /api/v1/links with Bearer, a JSON body and an Idempotency-Key per item', async () => {
		const seen: Array<{ headers: IDataObject; body: unknown }> = [];
		nock(BASE_URL)
			.post('/api/v1/links')
			.times(4)
			.reply(function (_uri, body) {
				seen.push({ headers: this.req.headers as IDataObject, body });
				return [201, { id: `lnk_${seen.length}`, code: 'c', url: 'https://example.com' }];
			});
		const node = linkNode({
			resource: 'link',
			operation: 'create',
			url: '={{ $json.url }}',
			additionalFields: {
				code: 'spring-sale',
				title: ' Spring ',
				tags: 'promo,,  spring ',
				expiresAt: '2030-03-01T10:00:00',
			},
			options: { idempotencyKey: '={{ $json.key }}' },
		});
		const options = {
			items: [
				{ url: 'https://example.com/a' },
				{ url: 'https://example.com/b', key: 'order-1042' },
			],
			credentials: {
				multichannelShortLinkApi: { baseUrl: `${BASE_URL}/api/v1/`, apiKey: API_KEY },
			},
		};

		const result = await runNode(node, options);
		const again = await runNode(node, options);

		expect(result.error).toBeUndefined();
		expect(again.error).toBeUndefined();
		const body = {
			url: 'https://example.com/a',
			code: 'spring-sale',
			title: 'Spring',
			tags: ['promo', 'spring'],
			// The date picker's local time, read in the workflow's time zone (n8n's default, America/New_York).
			expiresAt: DateTime.fromISO('2030-03-01T10:00:00', {
				zone: process.env.GENERIC_TIMEZONE ?? 'America/New_York',
			}).toISO(),
		};
		expect(seen[0].body).toEqual(body);
		expect(seen[1].body).toEqual({ ...body, url: 'https://example.com/b' });
		for (const { headers } of seen) {
			expect(headers).toMatchObject({
				authorization: `Bearer ${API_KEY}`,
				'content-type': 'application/json',
				accept: 'application/json',
			});
		}
		const idempotencyKeys = seen.map(({ headers }) => headers['idempotency-key']);
		expect(idempotencyKeys[0]).toMatch(/^n8n-[0-9a-f]{64}$/);
		expect(idempotencyKeys[1]).toBe('order-1042');
		// The same execution's items get the same keys again: a resend cannot create twice.
		expect(idempotencyKeys.slice(2)).toEqual(idempotencyKeys.slice(0, 2));
		expect(result.output(NODE_NAME).map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
		]);
		expect(JSON.stringify(result.run.data)).not.toContain(API_KEY);
	});
});
