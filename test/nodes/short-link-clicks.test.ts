/**
 * Short Link → Click → Get Many, run as real workflows (Manual Trigger → Items → node) through n8n-core against
 * the sandbox over loopback, after visits to a short link by people and by a bot.
 */
import type { IDataObject } from 'n8n-workflow';

import { clientsFor, raw } from '../support/sandbox';
import { byId } from '../support/nodes';
import { linkNode, NODE_NAME, useShortLinkSandbox } from '../support/short-link';

const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:126.0) Gecko/20100101 Firefox/126.0';

const suite = useShortLinkSandbox();
const { run } = suite;

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
