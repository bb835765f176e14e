/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- made-up keys, which the tests look for in every output */
/**
 * The Multichannel Automation node, run as real workflows (Manual Trigger → Items → node) through n8n-core:
 * Publish and Get Many against the sandbox over loopback, checking what comes out and which events the
 * sandbox holds afterwards; one nock test pins the wire format of Publish.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { clientsFor } from '../support/sandbox';
import { loopbackOrNock, nockOnly } from '../support/client';
import { runNode, type NodeUnderTest } from '../../dev/harness';
import { failure, useSandboxNode } from '../support/nodes';

// nock patches Node's http for the whole worker: undone when this file ends (test/nodes/quiet.test.ts).
afterAll(() => nock.restore());

const NODE_TYPE = 'n8n-nodes-multichannel.multichannelAutomation';
const NODE_NAME = 'Automation';

const suite = useSandboxNode('multichannelAutomationApi');
const { run } = suite;

function eventNode(parameters: IDataObject, extra: Partial<NodeUnderTest> = {}): NodeUnderTest {
	return {
		type: NODE_TYPE,
		name: NODE_NAME,
		parameters: { resource: 'event', ...parameters },
		...extra,
	} as NodeUnderTest;
}

const eventsInSandbox = (name?: string) =>
	suite.sandbox.store.all('automationEvents', (event) => name === undefined || event.name === name);

loopbackOrNock();

describe('Event → Publish (sandbox)', () => {
	test('several items, payload as JSON text or as an object: each is published, paired and listed', async () => {
		const result = await run(
			eventNode({
				operation: 'publish',
				eventName: '={{ $json.name }}',
				payload: '={{ $json.asText ? JSON.stringify($json.data) : $json.data }}',
				options: {},
			}),
			{
				items: [
					{ name: 'order.paid', data: { orderId: 1042, total: 99.5 }, asText: true },
					{ name: 'order.paid', data: { orderId: 1043, lines: [{ sku: 'A' }] } },
					{ name: 'signup', data: {} },
				],
			},
		);

		expect(result.error).toBeUndefined();
		const output = result.output(NODE_NAME);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(output[0].json).toMatchObject({
			id: expect.stringMatching(/^aev_/),
			name: 'order.paid',
			type: 'automation.order.paid',
			payload: { orderId: 1042, total: 99.5 },
		});
		expect(output[1].json.payload).toEqual({ orderId: 1043, lines: [{ sku: 'A' }] });

		expect(eventsInSandbox('order.paid').map((event) => event.payload)).toEqual(
			expect.arrayContaining([
				{ orderId: 1042, total: 99.5 },
				{ orderId: 1043, lines: [{ sku: 'A' }] },
			]),
		);
		expect(suite.sandbox.events.map((event) => event.type)).toEqual(
			expect.arrayContaining(['automation.order.paid', 'automation.signup']),
		);

		const listed = await run(
			eventNode({ operation: 'getAll', returnAll: true, filters: { eventName: 'order.paid' } }),
		);
		expect(listed.json(NODE_NAME).map((event) => event.id)).toEqual(
			expect.arrayContaining([output[0].json.id, output[1].json.id]),
		);
	});

	test('Occurred At is sent, and re-running the same item does not publish twice', async () => {
		const node = eventNode({
			operation: 'publish',
			eventName: 'invoice.sent',
			payload: '{"invoice": "INV-7"}',
			options: { occurredAt: '2025-05-01T08:30:00Z' },
		});

		const first = await run(node);
		const again = await run(node);

		expect(first.json(NODE_NAME)[0]).toMatchObject({
			occurredAt: '2025-05-01T08:30:00.000Z',
			payload: { invoice: 'INV-7' },
		});
		expect(again.json(NODE_NAME)).toEqual(first.json(NODE_NAME));
		expect(eventsInSandbox('invoice.sent')).toHaveLength(1);
	});

	test('invalid JSON stops the run naming field and item, before any request', async () => {
		const before = eventsInSandbox().length;
		const result = await run(
			eventNode({
				operation: 'publish',
				eventName: 'bad.payload',
				payload: '={{ $json.payload }}',
				options: {},
			}),
			{ items: [{ payload: '{"ok": true}' }, { payload: '{"orderId": 10' }] },
		);

		expect(failure(result)).toMatchObject({
			name: 'NodeOperationError',
			message: 'Invalid value for "Payload" [item 1]: it is not valid JSON',
			description: expect.stringContaining('Enter a JSON object'),
			context: { itemIndex: 1 },
		});
		// Every item is checked before any is published: item 0 did not go either.
		expect(eventsInSandbox().length).toBe(before);
	});

	test('with "continue on fail" bad payloads and names become error items and the rest is published', async () => {
		const before = eventsInSandbox().length;
		const result = await run(
			eventNode(
				{
					operation: 'publish',
					eventName: '={{ $json.name }}',
					payload: '={{ $json.payload }}',
					options: {},
				},
				{ onError: 'continueRegularOutput' },
			),
			{
				items: [
					{ name: 'cof.ok', payload: '{"n": 1}' },
					{ name: 'cof.list', payload: '[1, 2]' },
					{ name: 'Not Valid', payload: '{}' },
					{ name: 'cof.text', payload: 'hello' },
				],
			},
		);

		expect(result.run.status).toBe('success');
		const [ok, list, name, text] = result.output(NODE_NAME);
		expect(ok).toMatchObject({ json: { name: 'cof.ok' }, pairedItem: { item: 0 } });
		expect(list).toMatchObject({
			json: { error: 'Invalid value for "Payload" [item 1]: it must be a JSON object, not a list' },
			pairedItem: { item: 1 },
		});
		expect(name).toMatchObject({
			json: { error: expect.stringMatching(/^Invalid value for "Event Name" \[item 2\]: /) },
			pairedItem: { item: 2 },
		});
		expect(text).toMatchObject({
			json: { error: 'Invalid value for "Payload" [item 3]: it is not valid JSON' },
			pairedItem: { item: 3 },
		});
		expect(eventsInSandbox().length).toBe(before + 1);
	});
});

describe('Event → Get Many (sandbox)', () => {
	beforeAll(async () => {
		const { automation } = clientsFor(suite.sandbox.baseUrl, suite.keys);
		for (let index = 0; index < 103; index++) {
			await automation.events.publish({ body: { name: 'bulk.event', payload: { index } } });
		}
	});

	test('Return All follows the cursor across pages; Limit keeps the newest', async () => {
		const all = await run(
			eventNode({ operation: 'getAll', returnAll: true, filters: { eventName: 'bulk.event' } }),
		);
		const limited = await run(
			eventNode({ operation: 'getAll', returnAll: false, limit: 2, filters: {} }),
		);

		const events = all.json(NODE_NAME);
		expect(events).toHaveLength(103);
		expect(new Set(events.map((event) => event.id)).size).toBe(103);
		expect(events.every((event) => event.name === 'bulk.event')).toBe(true);
		expect(limited.output(NODE_NAME).map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 0 },
		]);
	});
});

describe('keys the service refuses (sandbox)', () => {
	const publish = eventNode({
		operation: 'publish',
		eventName: 'refused',
		payload: '{}',
		options: {},
	});

	test('401: an unknown key is rejected with where to get one', async () => {
		const result = await run(publish, { apiKey: 'mca_not_a_real_key_0000000000' });

		expect(failure(result)).toMatchObject({
			name: 'NodeApiError',
			httpCode: '401',
			message: `The automation API key was rejected: check it in the credential, or generate a new one in the Multichannel console at ${suite.sandbox.baseUrl}/user/api`,
		});
	});

	test('403: a workspace key on the automation credential is of the wrong kind', async () => {
		const result = await run(publish, { apiKey: suite.keys.workspace });

		expect(failure(result)).toMatchObject({
			name: 'NodeApiError',
			httpCode: '403',
			message:
				'The API key is not allowed to do this: it lacks the automation:write scope, or it is not an automation key',
		});
		expect(eventsInSandbox('refused')).toEqual([]);
	});
});

describe('wire format (nock)', () => {
	const BASE_URL = 'http://automation.example.test';
	const API_KEY = 'mca_live_1a2b3c4d5e6f7a8b';

	nockOnly();

	test('Publish sends POST /api/v1/automation/events with Bearer, Idempotency-Key and the JSON body', async () => {
		const seen: Array<{ headers: IDataObject; body: unknown }> = [];
		nock(BASE_URL)
			.post('/api/v1/automation/events')
			.times(2)
			.reply(function (_uri, body) {
				seen.push({ headers: this.req.headers as IDataObject, body });
				return [202, { id: `aev_${seen.length}`, name: 'order.paid' }];
			});

		const result = await runNode(
			eventNode({
				operation: 'publish',
				eventName: 'order.paid',
				payload: '={{ $json }}',
				options: {},
			}),
			{
				items: [{ orderId: 1 }, { orderId: 2 }],
				credentials: { multichannelAutomationApi: { baseUrl: BASE_URL, apiKey: API_KEY } },
			},
		);

		expect(result.error).toBeUndefined();
		expect(seen.map(({ body }) => body)).toEqual([
			{ name: 'order.paid', payload: { orderId: 1 } },
			{ name: 'order.paid', payload: { orderId: 2 } },
		]);
		for (const { headers } of seen) {
			expect(headers).toMatchObject({
				authorization: `Bearer ${API_KEY}`,
				'content-type': 'application/json',
				'idempotency-key': expect.stringMatching(/^n8n-[0-9a-f]{64}$/),
			});
		}
		expect(seen[0].headers['idempotency-key']).not.toBe(seen[1].headers['idempotency-key']);
		expect(result.output(NODE_NAME)).toEqual([
			{ json: { id: 'aev_1', name: 'order.paid' }, pairedItem: { item: 0 } },
			{ json: { id: 'aev_2', name: 'order.paid' }, pairedItem: { item: 1 } },
		]);
		expect(JSON.stringify(result.run.data)).not.toContain(API_KEY);
	});
});
