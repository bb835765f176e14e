import nock from 'nock';

import { UnexpectedResponseError } from '../../src/client';
import { mockService, clients, resetNock } from '../support/client';

// nock patches Node's http for the whole worker: undone when this file ends (test/nodes/quiet.test.ts).
afterAll(() => nock.restore());

beforeEach(resetNock);
afterAll(() => nock.enableNetConnect());

const contact = (n: number) => ({
	id: `ct_${n}`,
	phoneNumber: `+1415555${String(n).padStart(4, '0')}`,
});
const contacts = (from: number, count: number) =>
	Array.from({ length: count }, (_, i) => contact(from + i));

/** Three pages of 100, 100 and 50 contacts, chained by cursors. */
function threePages(filter: Record<string, string> = {}) {
	const requested: string[] = [];
	const pages: Array<[string | undefined, number, number, string | null]> = [
		[undefined, 0, 100, 'c100'],
		['c100', 100, 100, 'c200'],
		['c200', 200, 50, null],
	];
	for (const [cursor, from, count, next] of pages) {
		mockService()
			.get('/api/v1/instances/i1/contacts')
			.query({ limit: '100', ...filter, ...(cursor ? { cursor } : {}) })
			.reply(function (uri) {
				requested.push(uri);
				return [200, { data: contacts(from, count), nextCursor: next }];
			});
	}
	return requested;
}

describe('cursor pagination', () => {
	it('iterates every page, following nextCursor, with the filters on every request', async () => {
		const { workspace } = clients();
		const requested = threePages({ search: 'a' });
		const sizes: number[] = [];
		for await (const page of workspace.contacts.list.pages({
			instanceId: 'i1',
			query: { limit: 100, search: 'a' },
		})) {
			sizes.push(page.data.length);
		}
		expect(sizes).toEqual([100, 100, 50]);
		expect(requested).toEqual([
			'/api/v1/instances/i1/contacts?limit=100&search=a',
			'/api/v1/instances/i1/contacts?limit=100&cursor=c100&search=a',
			'/api/v1/instances/i1/contacts?limit=100&cursor=c200&search=a',
		]);
	});

	it('collects all items across pages, in order', async () => {
		const { workspace } = clients();
		threePages();
		const all = await workspace.contacts.list.all({ instanceId: 'i1' });
		expect(all).toHaveLength(250);
		expect(all.map((c) => c.id)).toEqual(contacts(0, 250).map((c) => c.id));
	});

	it('stops at max without fetching further pages', async () => {
		const { workspace } = clients();
		const requested = threePages();
		const some = await workspace.contacts.list.all({ instanceId: 'i1' }, { max: 150 });
		expect(some.map((c) => c.id)).toEqual(contacts(0, 150).map((c) => c.id));
		expect(requested).toHaveLength(2);
	});

	it('asks for a page no larger than max', async () => {
		const { shortLink } = clients();
		const scope = mockService()
			.get('/api/v1/links')
			.query({ limit: '7' })
			.reply(200, { data: contacts(0, 7), nextCursor: 'more' });
		const links = await shortLink.links.list.all(undefined, { max: 7 });
		expect(links).toHaveLength(7);
		expect(scope.isDone()).toBe(true);
	});

	it('treats a missing nextCursor as the last page', async () => {
		const { workspace } = clients();
		mockService()
			.get('/api/v1/instances')
			.query({ limit: '100' })
			.reply(200, { data: [{ id: 'i1' }] });
		await expect(workspace.instances.list.all()).resolves.toEqual([{ id: 'i1' }]);
	});

	it('refuses a server that repeats a cursor instead of looping forever', async () => {
		const { workspace } = clients();
		mockService()
			.get('/api/v1/instances')
			.query({ limit: '100' })
			.reply(200, { data: [{ id: 'i1' }], nextCursor: 'same' });
		mockService()
			.get('/api/v1/instances')
			.query({ limit: '100', cursor: 'same' })
			.times(2)
			.reply(200, { data: [{ id: 'i2' }], nextCursor: 'same' });
		await expect(workspace.instances.list.all()).rejects.toBeInstanceOf(UnexpectedResponseError);
	});
});
