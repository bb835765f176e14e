/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- made-up secrets and keys, which the tests look for in outputs */
/**
 * The Webhook resource of the Multichannel node, run as real workflows against the sandbox on loopback: the
 * signing secret appears in the Create output only, never in Get, Get Many or Update; one exact request
 * pinned with nock.
 */
import nock from 'nock';

import { runNode, runListSearch } from '../../dev/harness';
import { byId, expectNoSecrets, NODE_NAME, useResource } from '../support/nodes';

// nock patches Node's http for the whole worker: undone when this file ends (test/nodes/quiet.test.ts).
afterAll(() => nock.restore());

const suite = useResource('webhook');
const { run } = suite;
const stored = (id: unknown) => suite.service.sandbox.store.get('webhooks', id as string);
const SECRET = 'whsec_made_up_for_tests_0123456789';

describe('Webhook', () => {
	test('Create outputs the secret once; Get, Get Many, Update never do; Delete removes it', async () => {
		const created = await run({
			operation: 'create',
			url: 'https://example.com/hooks/a',
			events: ['message.received', 'message.sent'],
			additionalFields: { secret: SECRET, description: 'CRM' },
		});
		const [webhook] = created.json(NODE_NAME);
		expect(webhook).toMatchObject({
			url: 'https://example.com/hooks/a',
			events: ['message.received', 'message.sent'],
			secret: SECRET,
		});
		expect(stored(webhook.id)).toMatchObject({ secret: SECRET, description: 'CRM' });

		const got = await run({ operation: 'get', webhookId: byId(webhook.id as string) });
		const many = await run({ operation: 'getAll', returnAll: true });
		const updated = await run({
			operation: 'update',
			webhookId: byId(webhook.id as string),
			updateFields: { url: 'https://example.com/hooks/b', events: ['*'] },
		});
		const search = await runListSearch(
			{ ...suite.node({ operation: 'get' }), method: 'searchWebhooks', filter: 'hooks/b' },
			{ credentials: suite.service.credentials },
		);

		expect(got.json(NODE_NAME)[0]).toMatchObject({
			id: webhook.id,
			url: 'https://example.com/hooks/a',
		});
		expect(many.json(NODE_NAME).map((item) => item.id)).toContain(webhook.id);
		expect(updated.json(NODE_NAME)[0]).toMatchObject({
			url: 'https://example.com/hooks/b',
			events: ['*'],
		});
		expect(stored(webhook.id)).toMatchObject({ url: 'https://example.com/hooks/b', events: ['*'] });
		expect(search.results).toEqual([{ name: 'https://example.com/hooks/b', value: webhook.id }]);
		for (const result of [got, many, updated]) {
			for (const item of result.json(NODE_NAME)) expect(item).not.toHaveProperty('secret');
			expectNoSecrets(result, [SECRET, suite.service.apiKey]);
		}

		const deleted = await run({ operation: 'delete', webhookId: byId(webhook.id as string) });
		expect(deleted.json(NODE_NAME)).toEqual([{ deleted: true, id: webhook.id }]);
		expect(stored(webhook.id)).toBeUndefined();
	});

	test('a URL that is not http(s) is an input error naming the field', async () => {
		const result = await run({ operation: 'create', url: 'ftp://example.com', events: ['*'] });

		expect(result.error).toMatchObject({ name: 'NodeOperationError' });
		expect(result.error?.message).toMatch(/URL/);
		expect(
			suite.service.sandbox.store.all('webhooks', (hook) => hook.url === 'ftp://example.com'),
		).toEqual([]);
	});

	test('404 for a deleted webhook', async () => {
		const result = await run({ operation: 'get', webhookId: byId('wh_missing') });

		expect(result.error).toMatchObject({
			name: 'NodeApiError',
			httpCode: '404',
			message: 'The webhook was not found [item 0]',
		});
	});
});

describe('Webhook on the wire (nock)', () => {
	const BASE_URL = 'http://127.0.0.1:8792';
	const credentials = { multichannelApi: { baseUrl: BASE_URL, apiKey: 'mcw_test_wire_7890' } };

	beforeAll(() => nock.disableNetConnect());
	afterAll(() => {
		nock.cleanAll();
		nock.enableNetConnect();
	});

	test('Create: POST /api/v1/webhooks with url, events and instance filter', async () => {
		const seen: unknown[] = [];
		nock(BASE_URL)
			.post('/api/v1/webhooks')
			.reply(201, (_uri, body) => {
				seen.push(body);
				return {
					id: 'wh_1',
					url: 'https://example.com/h',
					events: ['*'],
					secret: 'generated-secret-1234',
				};
			});

		const result = await runNode(
			suite.node({
				operation: 'create',
				url: ' https://example.com/h ',
				events: ['*'],
				additionalFields: { instanceIds: 'inst_1, inst_2' },
			}),
			{ credentials },
		);

		expect(result.error).toBeUndefined();
		expect(seen).toEqual([
			{
				url: 'https://example.com/h',
				events: ['*'],
				filters: { instanceIds: ['inst_1', 'inst_2'] },
			},
		]);
		expect(result.json(NODE_NAME)[0]).toMatchObject({
			id: 'wh_1',
			secret: 'generated-secret-1234',
		});
	});

	test('Get drops a secret even if a service sent one', async () => {
		nock(BASE_URL)
			.get('/api/v1/webhooks/wh_1')
			.reply(200, { id: 'wh_1', url: 'https://example.com/h', secret: 'leaked-secret-5678' });

		const result = await runNode(suite.node({ operation: 'get', webhookId: byId('wh_1') }), {
			credentials,
		});

		expect(result.json(NODE_NAME)).toEqual([{ id: 'wh_1', url: 'https://example.com/h' }]);
		expectNoSecrets(result, ['leaked-secret-5678']);
	});
});
