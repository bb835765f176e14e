/**
 * Short Link → Link → Get, Get Many, Update and Delete, and the link locator's "From list", run as real workflows
 * (Manual Trigger → Items → node) through n8n-core against the sandbox over loopback: what comes out, and the
 * state the sandbox is left in.
 */
import { clientsFor, raw } from '../support/sandbox';
import { runListSearch } from '../../dev/harness';
import { byId, failure } from '../support/nodes';
import { linkNode, NODE_NAME, useShortLinkSandbox } from '../support/short-link';

const suite = useShortLinkSandbox();
const { run } = suite;

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
