/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- a made-up key, which the tests look for in outputs */
/**
 * A chat's history and the Chat resource on the wire, with nock: the exact requests of Message → Get Many
 * (every filter, the cursor pages of Return All), Chat → Get Many, Get and Mark All as Read. The same operations
 * against the sandbox are in chat.test.ts.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../dev/harness';
import { nockOnly } from '../support/client';
import { byId, expectNoSecrets, multichannelNode, NODE_NAME } from '../support/nodes';

// nock patches Node's http for the whole worker: undone when this file ends (test/nodes/quiet.test.ts).
afterAll(() => nock.restore());

describe('Chats and a chat’s history on the wire (nock)', () => {
	const BASE_URL = 'http://127.0.0.1:8789';
	const API_KEY = 'mcw_test_chats_4321';
	const credentials = { multichannelApi: { baseUrl: BASE_URL, apiKey: API_KEY } };
	const CHAT = '14155550123@s.whatsapp.net';
	const chat = { id: CHAT, name: 'Ana', isGroup: false, unreadCount: 2, lastMessage: null };
	const seen: Array<{ method: string; path: string; headers: IDataObject; body: unknown }> = [];

	/** Answers every request of `method` to the instance with `answer(path)`, and records it. */
	const serve = (method: 'get' | 'post', answer: (path: string) => [number, object]) => {
		const scope = nock(BASE_URL).persist();
		const paths = /^\/api\/v1\/instances\/inst_1\//;
		(method === 'get' ? scope.get(paths) : scope.post(paths)).reply(function (path, body) {
			seen.push({ method: this.req.method, path, headers: this.req.headers, body });
			return answer(path);
		});
	};
	const run = async (resource: string, parameters: IDataObject) => {
		const result = await runNode(
			multichannelNode(resource, { instanceId: byId('inst_1'), ...parameters }),
			{ credentials },
		);
		expectNoSecrets(result, [API_KEY]);
		return result;
	};

	nockOnly();
	beforeEach(() => (seen.length = 0));

	test('Message → Get Many: chatId, order, direction, since, until; Return All follows nextCursor', async () => {
		serve('get', (path) =>
			path.includes('cursor=')
				? [200, { data: [{ id: 'msg_2', type: 'text', content: { text: 'b' } }], nextCursor: null }]
				: [
						200,
						{ data: [{ id: 'msg_1', type: 'text', content: { text: 'a' } }], nextCursor: 'c2' },
					],
		);

		const result = await run('message', {
			operation: 'getAll',
			chatId: byId(CHAT),
			returnAll: true,
			order: 'oldest',
			direction: 'inbound',
			filters: { since: '2026-11-24T10:00:00Z', until: '2026-11-24T12:30:00+01:00' },
		});

		// In the order of the contract's query schema: limit and cursor first (ListQuery), then the filters.
		const filters =
			'chatId=14155550123%40s.whatsapp.net&direction=inbound&since=2026-11-24T10%3A00%3A00.000Z' +
			'&until=2026-11-24T12%3A30%3A00.000%2B01%3A00&order=oldest';
		expect(seen.map(({ method, path }) => `${method} ${path}`)).toEqual([
			`GET /api/v1/instances/inst_1/messages?limit=100&${filters}`,
			`GET /api/v1/instances/inst_1/messages?limit=100&cursor=c2&${filters}`,
		]);
		expect(seen[0].headers).toMatchObject({ authorization: `Bearer ${API_KEY}` });
		expect(result.json(NODE_NAME)).toEqual([
			{ id: 'msg_1', type: 'text', text: 'a' },
			{ id: 'msg_2', type: 'text', text: 'b' },
		]);
	});

	test('Message → Get Many by default: newest first, both directions, a page of the limit', async () => {
		serve('get', () => [200, { data: [], nextCursor: null }]);

		await run('message', { operation: 'getAll', chatId: byId(CHAT), limit: 20 });

		expect(seen.map(({ path }) => path)).toEqual([
			'/api/v1/instances/inst_1/messages?limit=20&chatId=14155550123%40s.whatsapp.net&order=newest',
		]);
	});

	test('Chat → Get Many (search), Get and Mark All as Read', async () => {
		serve('get', (path) =>
			path.includes('/chats?') ? [200, { data: [chat], nextCursor: null }] : [200, chat],
		);
		serve('post', () => [200, { ...chat, unreadCount: 0, markedRead: 2 }]);

		const list = await run('chat', { operation: 'getAll', limit: 5, filters: { search: ' Ana ' } });
		const got = await run('chat', { operation: 'get', chatId: byId(CHAT) });
		const read = await run('chat', { operation: 'markRead', chatId: byId(CHAT) });

		expect(seen.map(({ method, path, body }) => [method, path, body])).toEqual([
			['GET', '/api/v1/instances/inst_1/chats?limit=5&search=Ana', ''],
			['GET', '/api/v1/instances/inst_1/chats/14155550123%40s.whatsapp.net', ''],
			['POST', '/api/v1/instances/inst_1/chats/14155550123%40s.whatsapp.net/read', ''],
		]);
		expect(seen[2].headers['idempotency-key']).toBeUndefined();
		const simple = { id: CHAT, name: 'Ana', isGroup: false, unreadCount: 2 };
		expect(list.json(NODE_NAME)).toEqual([simple]);
		expect(got.json(NODE_NAME)).toEqual([simple]);
		expect(read.json(NODE_NAME)).toEqual([{ ...simple, unreadCount: 0, markedRead: 2 }]);
	});
});
