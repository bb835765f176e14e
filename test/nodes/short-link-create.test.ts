/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-globals -- made-up keys, which the tests look for in every output; test code runs in plain Node, never inside n8n */
/**
 * Short Link → Link → Create, run as real workflows (Manual Trigger → Items → node) through n8n-core: against the
 * sandbox over loopback, checking what comes out and the links the sandbox is left with; one nock test pins the
 * wire format.
 */
import { DateTime } from 'luxon';
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { raw } from '../support/sandbox';
import { nockOnly } from '../support/client';
import { runNode } from '../../dev/harness';
import { linkNode, NODE_NAME, useShortLinkSandbox } from '../support/short-link';

// nock patches Node's http for the whole worker: undone when this file ends (test/nodes/quiet.test.ts).
afterAll(() => nock.restore());

const suite = useShortLinkSandbox();
const { run } = suite;

const linksInSandbox = () => suite.sandbox.store.all('links');

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
