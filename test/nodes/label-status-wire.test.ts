/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- a made-up key, which the tests look for in outputs */
/**
 * Labels and statuses on the wire, with nock: the exact requests of Label → Create, Get Many, Update, Delete,
 * Add to Chat, Remove from Chat, Chat → Get Many by label, and Status → Post (text, URL), Get Many, Delete. The same
 * operations against the sandbox are in label.test.ts and status.test.ts.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../dev/harness';
import { nockOnly } from '../support/client';
import { byId, expectNoSecrets, multichannelNode, NODE_NAME } from '../support/nodes';

// nock patches Node's http for the whole worker: undone when this file ends (test/nodes/quiet.test.ts).
afterAll(() => nock.restore());

const BASE_URL = 'http://127.0.0.1:8791';
const API_KEY = 'mcw_test_labels_5678';
const credentials = { multichannelApi: { baseUrl: BASE_URL, apiKey: API_KEY } };
const CHAT = '14155550123@s.whatsapp.net';
const label = {
	id: 'lbl_1',
	name: 'VIP',
	color: '#ff9dff',
	chatCount: 0,
	createdAt: 'x',
	updatedAt: 'x',
};
const status = {
	id: 'st_1',
	instanceId: 'inst_1',
	type: 'text',
	viewCount: 0,
	createdAt: 'x',
	expiresAt: 'y',
};
const seen: Array<{ method: string; path: string; headers: IDataObject; body: unknown }> = [];

/** Answers every request with what `answer` gives for its method and path, and records it. */
function serve(methods: string[], answer: (method: string, path: string) => [number, object?]) {
	for (const method of methods) {
		nock(BASE_URL)
			.persist()
			.intercept(/.*/, method)
			.reply(function (path, body) {
				seen.push({ method, path, headers: this.req.headers, body });
				return answer(method, path);
			});
	}
}

async function run(resource: string, parameters: IDataObject) {
	const result = await runNode(multichannelNode(resource, parameters), { credentials });
	expectNoSecrets(result, [API_KEY]);
	expect(result.error).toBeUndefined();
	return result;
}

const requests = () => seen.map(({ method, path, body }) => [method, path, body]);

nockOnly();
beforeEach(() => (seen.length = 0));

test('Label: Create, Get Many, Update, Delete, Add to Chat, Remove from Chat; Chat → Get Many by label', async () => {
	serve(['GET', 'POST', 'PATCH', 'DELETE'], (method, path) => {
		if (method === 'DELETE' && path.startsWith('/api/v1/labels/')) return [204];
		if (path.includes('/chats?')) return [200, { data: [], nextCursor: null }];
		if (path.includes('/chats/'))
			return [200, { instanceId: 'inst_1', chatId: CHAT, labels: [label] }];
		if (method === 'GET') return [200, { data: [label], nextCursor: null }];
		return [method === 'POST' ? 201 : 200, label];
	});
	const onChat = {
		instanceId: byId('inst_1'),
		chatId: byId('+1 415 555 0123'),
		labelId: byId('lbl_1'),
	};

	await run('label', {
		operation: 'create',
		name: ' VIP ',
		additionalFields: { color: '#ff9dff' },
	});
	await run('label', { operation: 'getAll', limit: 5, filters: { search: 'vi' } });
	await run('label', {
		operation: 'update',
		labelId: byId('lbl_1'),
		updateFields: { name: 'VIPs' },
	});
	const deleted = await run('label', { operation: 'delete', labelId: byId('lbl_1') });
	const added = await run('label', { operation: 'addToChat', ...onChat });
	await run('label', { operation: 'removeFromChat', ...onChat });
	await run('chat', {
		operation: 'getAll',
		instanceId: byId('inst_1'),
		limit: 5,
		filters: { labelId: byId('lbl_1') },
	});

	// A person's number names their chat (the contract's "Numbers"): sent in E.164.
	const chatPath = `/api/v1/instances/inst_1/chats/%2B14155550123/labels/lbl_1`;
	expect(requests()).toEqual([
		['POST', '/api/v1/labels', { name: 'VIP', color: '#ff9dff' }],
		['GET', '/api/v1/labels?limit=5&search=vi', ''],
		['PATCH', '/api/v1/labels/lbl_1', { name: 'VIPs' }],
		['DELETE', '/api/v1/labels/lbl_1', ''],
		['POST', chatPath, ''],
		['DELETE', chatPath, ''],
		['GET', '/api/v1/instances/inst_1/chats?limit=5&labelId=lbl_1', ''],
	]);
	expect(seen[0].headers['idempotency-key']).toEqual(expect.any(String));
	expect(deleted.json(NODE_NAME)).toEqual([{ deleted: true, id: 'lbl_1' }]);
	expect(added.json(NODE_NAME)).toEqual([{ instanceId: 'inst_1', chatId: CHAT, labels: [label] }]);
});

test('Status: Post a text and a video by URL (idempotency keys), Get Many, Delete', async () => {
	serve(['GET', 'POST', 'DELETE'], (method) =>
		method === 'DELETE'
			? [204]
			: method === 'GET'
				? [200, { data: [status], nextCursor: null }]
				: [201, status],
	);
	const onInstance = { instanceId: byId('inst_1') };

	await run('status', {
		...onInstance,
		operation: 'post',
		type: 'text',
		text: 'Hi',
		backgroundColor: '#112233',
	});
	await run('status', {
		...onInstance,
		operation: 'post',
		type: 'video',
		source: 'url',
		url: ' https://example.com/a.mp4 ',
		caption: 'Tour',
	});
	const listed = await run('status', { ...onInstance, operation: 'getAll', limit: 3 });
	await run('status', { ...onInstance, operation: 'delete', statusId: ' st_1 ' });

	expect(requests()).toEqual([
		[
			'POST',
			'/api/v1/instances/inst_1/statuses',
			{ type: 'text', text: 'Hi', backgroundColor: '#112233' },
		],
		[
			'POST',
			'/api/v1/instances/inst_1/statuses',
			{ type: 'video', url: 'https://example.com/a.mp4', caption: 'Tour' },
		],
		['GET', '/api/v1/instances/inst_1/statuses?limit=3', ''],
		['DELETE', '/api/v1/instances/inst_1/statuses/st_1', ''],
	]);
	const keys = seen.slice(0, 2).map(({ headers }) => headers['idempotency-key']);
	expect(keys[0]).toEqual(expect.any(String));
	expect(keys[0]).not.toEqual(keys[1]);
	expect(listed.json(NODE_NAME)).toEqual([status]);
});
