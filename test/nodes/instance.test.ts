/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- a made-up key, which the tests look for in outputs */
/**
 * The Instance resource of the Multichannel node, run as real workflows against the sandbox on loopback:
 * each operation's output and the state it leaves in the sandbox; one exact request pinned with nock.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { runNode, runListSearch } from '../../dev/harness';
import { byId, expectNoSecrets, NODE_NAME, useResource } from '../support/nodes';

// nock patches Node's http for the whole worker: undone when this file ends (test/nodes/quiet.test.ts).
afterAll(() => nock.restore());

const suite = useResource('instance');
const { run } = suite;

describe('Instance', () => {
	test('Create makes one instance per input item, in order, each paired with its item', async () => {
		const result = await run({ operation: 'create', name: '={{ $json.name }}' }, [
			{ name: 'Sales' },
			{ name: 'Support' },
		]);

		const output = result.output(NODE_NAME);
		expect(output.map((item) => [item.json.name, item.json.status, item.pairedItem])).toEqual([
			['Sales', 'created', { item: 0 }],
			['Support', 'created', { item: 1 }],
		]);
		for (const item of output) {
			expect(suite.service.sandbox.store.get('instances', item.json.id as string)).toMatchObject({
				name: item.json.name,
				status: 'created',
			});
		}
		expectNoSecrets(result, [suite.service.apiKey]);
	});

	test('Get, Get Many (limit) and the From-list search', async () => {
		const created = await suite.service.client.instances.create({ body: { name: 'Findable' } });

		const got = await run({ operation: 'get', instanceId: byId(created.id) });
		const many = await run({ operation: 'getAll', returnAll: false, limit: 2 });
		const search = await runListSearch(
			{ ...suite.node({ operation: 'get' }), method: 'searchInstances', filter: 'findab' },
			{ credentials: suite.service.credentials },
		);

		expect(got.json(NODE_NAME)).toEqual([
			expect.objectContaining({ id: created.id, name: 'Findable' }),
		]);
		expect(many.json(NODE_NAME)).toHaveLength(2);
		expect(search.results).toEqual([{ name: 'Findable (created)', value: created.id }]);
	});

	test('Connect by QR code, then by pairing code with a number typed with spaces and a leading 00', async () => {
		const a = await suite.service.client.instances.create({ body: { name: 'QR' } });
		const b = await suite.service.client.instances.create({ body: { name: 'Pairing' } });

		const qr = await run({ operation: 'connect', instanceId: byId(a.id), method: 'qr' });
		const pairing = await run({
			operation: 'connect',
			instanceId: byId(b.id),
			method: 'pairing_code',
			phoneNumber: '0044 20 7946-0958',
		});

		expect(qr.json(NODE_NAME)[0]).toMatchObject({
			instanceId: a.id,
			status: 'connecting',
			qr: { code: expect.any(String) },
		});
		expect(pairing.json(NODE_NAME)[0]).toMatchObject({
			instanceId: b.id,
			pairingCode: expect.any(String),
		});
		expect(suite.service.sandbox.store.get('instances', b.id)?.connection).toMatchObject({
			method: 'pairing_code',
			phoneNumber: '+442079460958',
		});
	});

	test('an impossible pairing number is an input error naming the field and item; nothing is sent', async () => {
		const instance = await suite.service.client.instances.create({ body: { name: 'Bad number' } });

		const result = await run({
			operation: 'connect',
			instanceId: byId(instance.id),
			method: 'pairing_code',
			phoneNumber: '12-34',
		});

		expect(result.error).toMatchObject({
			name: 'NodeOperationError',
			// The reason is the phone rule's (test/nodes/numbers.test.ts): here, national-looking with no country.
			message: expect.stringMatching(/^Invalid value for "Phone Number" \[item 0\]: "12-34" \S/),
		});
		expect(suite.service.sandbox.store.get('instances', instance.id)?.status).toBe('created');
	});

	test('Get Connection State, Restart, Log Out and Delete change the sandbox as they say', async () => {
		const { id } = await suite.service.connectedInstance('Lifecycle', '+14155550177');

		const state = await run({ operation: 'getConnectionState', instanceId: byId(id) });
		expect(state.json(NODE_NAME)[0]).toMatchObject({
			instanceId: id,
			state: 'connected',
			phoneNumber: '+14155550177',
		});

		const restarted = await run({ operation: 'restart', instanceId: byId(id) });
		expect(restarted.json(NODE_NAME)[0]).toMatchObject({ id });

		const loggedOut = await run({ operation: 'logout', instanceId: byId(id) });
		expect(loggedOut.json(NODE_NAME)[0]).toMatchObject({ id, status: 'disconnected' });
		expect(suite.service.sandbox.store.get('instances', id)?.status).toBe('disconnected');

		const deleted = await run({ operation: 'delete', instanceId: byId(id) });
		expect(deleted.output(NODE_NAME)).toEqual([
			{ json: { deleted: true, id }, pairedItem: { item: 0 } },
		]);
		expect(suite.service.sandbox.store.get('instances', id)).toBeUndefined();
	});

	test('404: an unknown instance says so, and with continue on fail the other items go on', async () => {
		const { id } = await suite.service.client.instances.create({ body: { name: 'Known' } });

		const result = await run(
			{ operation: 'get', instanceId: byId('={{ $json.id }}') },
			[{ id: 'inst_missing' }, { id }],
			{ onError: 'continueRegularOutput' },
		);

		const [missing, found] = result.output(NODE_NAME);
		expect(missing.pairedItem).toEqual({ item: 0 });
		expect(missing.json.error).toBe('The instance was not found [item 0]');
		expect(missing.json.details).toMatchObject({ httpCode: '404', code: 'not_found' });
		expect(found).toMatchObject({ json: { id }, pairedItem: { item: 1 } });
	});

	test('403: a read-only key cannot create, and the message names the scope', async () => {
		const { key } = suite.service.sandbox.issueKey({
			kind: 'workspace',
			scopes: ['messaging:read'],
		});

		const result = await runNode(suite.node({ operation: 'create', name: 'Nope' }), {
			credentials: { multichannelApi: { baseUrl: suite.service.sandbox.baseUrl, apiKey: key } },
		});

		expect(result.error).toMatchObject({
			name: 'NodeApiError',
			httpCode: '403',
			message:
				'The API key is not allowed to do this: it lacks the messaging:write scope, or it is not a workspace key',
		});
		expectNoSecrets(result, [key]);
	});
});

describe('Instance on the wire (nock)', () => {
	const BASE_URL = 'http://127.0.0.1:8788';
	const credentials = { multichannelApi: { baseUrl: BASE_URL, apiKey: 'mcw_test_wire_1234' } };

	beforeAll(() => nock.disableNetConnect());
	afterAll(() => {
		nock.cleanAll();
		nock.enableNetConnect();
	});

	test('Connect by pairing code: POST /api/v1/instances/{id}/connect with the normalised number', async () => {
		const seen: Array<{ headers: IDataObject; body: unknown }> = [];
		nock(BASE_URL)
			.post('/api/v1/instances/inst_1/connect')
			.reply(function (_uri, body) {
				seen.push({ headers: this.req.headers, body });
				return [200, { instanceId: 'inst_1', status: 'connecting', pairingCode: 'ABCD-EFGH' }];
			});

		const result = await runNode(
			suite.node({
				operation: 'connect',
				instanceId: byId('inst_1'),
				method: 'pairing_code',
				phoneNumber: '+1 (415) 555.0123',
			}),
			{ credentials },
		);

		expect(result.error).toBeUndefined();
		expect(seen).toEqual([
			{
				headers: expect.objectContaining({
					authorization: 'Bearer mcw_test_wire_1234',
					'content-type': 'application/json',
					accept: 'application/json',
				}),
				body: { method: 'pairing_code', phoneNumber: '+14155550123' },
			},
		]);
		expect(result.json(NODE_NAME)).toEqual([
			{ instanceId: 'inst_1', status: 'connecting', pairingCode: 'ABCD-EFGH' },
		]);
	});
});
