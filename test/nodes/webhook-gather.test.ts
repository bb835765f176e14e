/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- made-up secrets and keys, which the tests look for in outputs */
/**
 * Webhook → Create and Update with "Gather Messages From the Same Chat", run as real workflows through n8n-core
 * against the sandbox on loopback: the webhook is stored with `gather`, Get shows it, a burst reaches the URL as
 * one event, Stop Gathering turns it off (each message alone again); bad values are input errors naming the
 * field and the item. The exact requests are pinned with nock.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../dev/harness';
import { nockOnly } from '../support/client';
import { sleep, startReceiver, type Receiver } from '../support/sandbox';
import { byId, expectNoSecrets, multichannelNode, NODE_NAME, useResource } from '../support/nodes';

// nock patches Node's http for the whole worker: undone when this file ends (test/nodes/quiet.test.ts).
afterAll(() => nock.restore());

const SECRET = 'whsec_gathering_for_tests_0123456789';
const CONTACT = '+14155550391';
const QUIET = 'Gather Messages From the Same Chat › Quiet Period (Seconds)';
const gathering = (quietSeconds: unknown, maxWaitSeconds: unknown = 20) => ({
	gather: { settings: { quietSeconds, maxWaitSeconds } },
});

describe('Webhook with gathering (sandbox)', () => {
	const suite = useResource('webhook');
	const { run } = suite;
	let receiver: Receiver;
	let instanceId: string;

	beforeAll(async () => {
		receiver = await startReceiver();
		receiver.secrets.push(SECRET);
		instanceId = (await suite.service.connectedInstance('Gathering', '+14155550390')).id;
	});
	afterAll(async () => await receiver?.close());

	/** A webhook registered at the service directly, without gathering. */
	const registered = async (url: string) =>
		await suite.service.client.webhooks.create({ body: { url, events: ['*'] } });
	const received = () => receiver.of('message.received').map((delivery) => delivery.event.data);
	const write = async (texts: string[]) => {
		const ids = [];
		for (const text of texts) {
			ids.push((await suite.service.inbound(instanceId, CONTACT, text)).id);
			await sleep(200);
		}
		return ids;
	};

	test('Create stores gather, Get shows it and a burst arrives as one event; Stop Gathering ends it', async () => {
		const created = await run({
			operation: 'create',
			url: receiver.url,
			events: ['message.received'],
			additionalFields: { secret: SECRET, instanceIds: instanceId, ...gathering(1, 20) },
		});
		const [webhook] = created.json(NODE_NAME);
		const webhookId = byId(webhook.id as string);
		expect(webhook).toMatchObject({ gather: { quietSeconds: 1, maxWaitSeconds: 20 } });
		expect(suite.service.sandbox.store.get('webhooks', webhook.id as string)).toMatchObject({
			gather: { quietSeconds: 1, maxWaitSeconds: 20 },
		});
		const got = await run({ operation: 'get', webhookId });
		expect(got.json(NODE_NAME)[0]).toMatchObject({
			gather: { quietSeconds: 1, maxWaitSeconds: 20 },
		});

		const burst = await write(['hi', 'I ordered yesterday', 'where is it?']);
		await receiver.waitForEvent('message.received', () => true, 6000);
		await sleep(1500);
		expect(received()).toEqual([
			expect.objectContaining({ gathered: true, count: 3, messageIds: burst, from: CONTACT }),
		]);

		const stopped = await run({
			operation: 'update',
			webhookId,
			updateFields: { stopGathering: true },
		});
		expect(stopped.json(NODE_NAME)[0]).toMatchObject({ id: webhook.id, gather: null });
		const gotAgain = await run({ operation: 'get', webhookId });
		expect(gotAgain.json(NODE_NAME)[0]).toMatchObject({ gather: null });

		const alone = await write(['one', 'two']);
		await sleep(1500);
		expect(received().slice(1)).toEqual([
			expect.objectContaining({ id: alone[0], content: expect.objectContaining({ text: 'one' }) }),
			expect.objectContaining({ id: alone[1], content: expect.objectContaining({ text: 'two' }) }),
		]);
		for (const result of [got, stopped, gotAgain]) expectNoSecrets(result, [SECRET]);
	});

	test('Update changes the gathering of a webhook', async () => {
		const webhook = await registered('https://example.com/hooks/gather');

		const updated = await run({
			operation: 'update',
			webhookId: byId(webhook.id),
			updateFields: gathering(5, 90),
		});

		expect(updated.json(NODE_NAME)[0]).toMatchObject({
			gather: { quietSeconds: 5, maxWaitSeconds: 90 },
		});
		expect(suite.service.sandbox.store.get('webhooks', webhook.id)).toMatchObject({
			gather: { quietSeconds: 5, maxWaitSeconds: 90 },
		});
	});

	test('a value out of range is an input error naming the field and the item; nothing is registered', async () => {
		const url = 'https://example.com/hooks/out-of-range';
		const result = await run(
			{
				operation: 'create',
				url,
				events: ['*'],
				additionalFields: gathering('={{ $json.quiet }}'),
			},
			[{ quiet: 61 }],
		);
		const [tooLong] = (
			await run(
				{
					operation: 'create',
					url,
					events: ['*'],
					additionalFields: gathering(3, '={{ $json.wait }}'),
				},
				[{ wait: 20 }, { wait: 301 }],
				{ onError: 'continueRegularOutput' },
			)
		)
			.json(NODE_NAME)
			.slice(1);

		expect(result.error).toMatchObject({
			name: 'NodeOperationError',
			message: `Invalid value for "${QUIET}" [item 0]: must be at most 60; it is 61`,
		});
		expect(tooLong.error).toBe(
			'Invalid value for "Gather Messages From the Same Chat › Max Wait (Seconds)" [item 1]: must be at most 300; it is 301',
		);
		// Item 0 of the second run was registered; neither run registered an out-of-range one.
		expect(suite.service.sandbox.store.all('webhooks', (hook) => hook.url === url)).toEqual([
			expect.objectContaining({ gather: { quietSeconds: 3, maxWaitSeconds: 20 } }),
		]);
	});

	test('seconds from an expression: a number as text is taken, a fraction or a word is an input error', async () => {
		const url = 'https://example.com/hooks/expression-seconds';
		const result = await run(
			{
				operation: 'create',
				url,
				events: ['*'],
				additionalFields: gathering('={{ $json.quiet }}'),
			},
			[{ quiet: '4' }, { quiet: 2.5 }, { quiet: 'soon' }],
			{ onError: 'continueRegularOutput' },
		);
		const [taken, fraction, word] = result.json(NODE_NAME);
		expect(taken).toMatchObject({ gather: { quietSeconds: 4, maxWaitSeconds: 20 } });
		expect(fraction.error).toBe(
			`Invalid value for "${QUIET}" [item 1]: must be a whole number; it is 2.5`,
		);
		expect(word.error).toBe(`Invalid value for "${QUIET}" [item 2]: must be a number; it is text`);
		expect(suite.service.sandbox.store.all('webhooks', (hook) => hook.url === url)).toHaveLength(1);
	});

	test('gathering and Stop Gathering at once is an input error naming both', async () => {
		const webhook = await registered('https://example.com/hooks/both');

		const result = await run({
			operation: 'update',
			webhookId: byId(webhook.id),
			updateFields: { ...gathering(2), stopGathering: true },
		});

		expect(result.error?.message).toBe(
			'Invalid value for "Stop Gathering" [item 0]: remove it or "Gather Messages From the Same Chat": the update can either gather or stop gathering',
		);
		expect(suite.service.sandbox.store.get('webhooks', webhook.id)).toMatchObject({ gather: null });
	});
});

describe('Webhook with gathering on the wire (nock)', () => {
	const BASE_URL = 'http://127.0.0.1:8793';
	const credentials = { multichannelApi: { baseUrl: BASE_URL, apiKey: 'mcw_test_wire_gather_1' } };
	const node = (parameters: IDataObject) => multichannelNode('webhook', parameters);
	const seen: Array<{ method: string; path: string; body: unknown }> = [];
	const serve = (method: 'post' | 'patch', path: string, status: number) => {
		const scope = nock(BASE_URL);
		(method === 'post' ? scope.post(path) : scope.patch(path)).reply(status, function (uri, body) {
			seen.push({ method: this.req.method, path: uri, body });
			const webhook = { id: 'wh_1', url: 'https://example.com/h', events: ['*'], gather: null };
			return method === 'post' ? { ...webhook, secret: 'generated-secret-1234' } : webhook;
		});
	};

	nockOnly();
	beforeEach(() => (seen.length = 0));

	test('Create: POST /api/v1/webhooks with gather', async () => {
		serve('post', '/api/v1/webhooks', 201);

		const result = await runNode(
			node({
				operation: 'create',
				url: 'https://example.com/h',
				events: ['message.received'],
				additionalFields: gathering(5, 120),
			}),
			{ credentials },
		);

		expect(result.error).toBeUndefined();
		expect(seen).toEqual([
			{
				method: 'POST',
				path: '/api/v1/webhooks',
				body: {
					url: 'https://example.com/h',
					events: ['message.received'],
					gather: { quietSeconds: 5, maxWaitSeconds: 120 },
				},
			},
		]);
	});

	test('Update: PATCH with gather, then with gather null for Stop Gathering', async () => {
		serve('patch', '/api/v1/webhooks/wh_1', 200);
		serve('patch', '/api/v1/webhooks/wh_1', 200);

		const changed = await runNode(
			node({ operation: 'update', webhookId: byId('wh_1'), updateFields: gathering('2', 30) }),
			{ credentials },
		);
		const stopped = await runNode(
			node({ operation: 'update', webhookId: byId('wh_1'), updateFields: { stopGathering: true } }),
			{ credentials },
		);

		expect([changed.error, stopped.error]).toEqual([undefined, undefined]);
		expect(seen).toEqual([
			{
				method: 'PATCH',
				path: '/api/v1/webhooks/wh_1',
				body: { gather: { quietSeconds: 2, maxWaitSeconds: 30 } },
			},
			{ method: 'PATCH', path: '/api/v1/webhooks/wh_1', body: { gather: null } },
		]);
	});

	test('Stop Gathering turned off alone changes nothing: no request', async () => {
		const result = await runNode(
			node({
				operation: 'update',
				webhookId: byId('wh_1'),
				updateFields: { stopGathering: false },
			}),
			{ credentials },
		);

		expect(result.error?.message).toBe(
			'Invalid value for "Update Fields" [item 0]: add at least one field to change',
		);
		expect(seen).toEqual([]);
	});
});
