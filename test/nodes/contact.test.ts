/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- a made-up key, which the tests look for in outputs */
/**
 * The Contact resource of the Multichannel node, run as real workflows against the sandbox on loopback:
 * every operation with its output and the sandbox's resulting state, Return All across pages (the sandbox
 * serves at most 100 a page); one exact request pinned with nock.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { runNode, runListSearch } from '../../dev/harness';
import { byId, expectNoSecrets, multichannelNode, NODE_NAME, useResource } from '../support/nodes';

// nock patches Node's http for the whole worker: undone when this file ends (test/nodes/quiet.test.ts).
afterAll(() => nock.restore());

const suite = useResource('contact', { instance: 'Contacts' });
const { run } = suite;
const stored = (id: unknown) => suite.service.sandbox.store.get('contacts', id as string);

describe('Contact', () => {
	test('Check Numbers Exist: one item per number, normalised', async () => {
		const result = await run({
			operation: 'checkNumbers',
			phoneNumbers: '+1 415 555 0401, 001 415 555 0000',
		});

		expect(result.output(NODE_NAME)).toEqual([
			{
				json: expect.objectContaining({ phoneNumber: '+14155550401', exists: true }),
				pairedItem: { item: 0 },
			},
			{
				json: expect.objectContaining({ phoneNumber: '+14155550000', exists: false }),
				pairedItem: { item: 0 },
			},
		]);
	});

	test('Create from several items; Get; Update; Block and Unblock; Delete', async () => {
		const created = await run(
			{
				operation: 'create',
				phoneNumber: '={{ $json.phone }}',
				defaultCountry: 'US',
				additionalFields: { name: '={{ $json.name }}', tags: 'customer, vip' },
			},
			[
				{ phone: '(415) 555-0411', name: 'Ana' },
				{ phone: '+44 20 7946 0411', name: 'Ben' },
			],
		);
		const [ana, ben] = created.json(NODE_NAME);
		expect(stored(ana.id)).toMatchObject({
			phoneNumber: '+14155550411',
			name: 'Ana',
			tags: ['customer', 'vip'],
		});
		expect(stored(ben.id)).toMatchObject({ phoneNumber: '+442079460411', name: 'Ben' });

		const got = await run({ operation: 'get', contactId: byId(ana.id as string) });
		expect(got.json(NODE_NAME)[0]).toMatchObject({ id: ana.id, name: 'Ana' });

		await run({
			operation: 'update',
			contactId: byId(ana.id as string),
			updateFields: { email: 'ana@example.com', tags: 'lead' },
		});
		expect(stored(ana.id)).toMatchObject({ email: 'ana@example.com', tags: ['lead'] });

		const blocked = await run({ operation: 'block', contactId: byId(ana.id as string) });
		expect(blocked.json(NODE_NAME)[0]).toMatchObject({ blocked: true });
		expect(stored(ana.id)?.blocked).toBe(true);
		await run({ operation: 'unblock', contactId: byId(ana.id as string) });
		expect(stored(ana.id)?.blocked).toBe(false);

		const deleted = await run({ operation: 'delete', contactId: byId(ben.id as string) });
		expect(deleted.json(NODE_NAME)).toEqual([{ deleted: true, id: ben.id }]);
		expect(stored(ben.id)).toBeUndefined();
		expectNoSecrets(created, [suite.service.apiKey]);
	});

	test('Get Many: Return All follows the cursors across pages; Limit stops early; filters are passed on', async () => {
		const other = await suite.service.connectedInstance('Many contacts');
		for (let index = 0; index < 130; index++) {
			await suite.service.client.contacts.create({
				instanceId: other.id,
				body: { phoneNumber: `+1415556${String(1000 + index)}`, name: `Person ${index}` },
			});
		}
		const onOther = (parameters: IDataObject) =>
			runNode(multichannelNode('contact', { instanceId: byId(other.id), ...parameters }), {
				credentials: suite.service.credentials,
			});

		const all = await onOther({ operation: 'getAll', returnAll: true });
		const limited = await onOther({ operation: 'getAll', returnAll: false, limit: 7 });
		const searched = await onOther({
			operation: 'getAll',
			returnAll: true,
			filters: { search: 'Person 12' },
		});

		expect(all.json(NODE_NAME)).toHaveLength(130);
		expect(new Set(all.json(NODE_NAME).map((item) => item.id)).size).toBe(130);
		expect(limited.json(NODE_NAME)).toHaveLength(7);
		expect(searched.json(NODE_NAME).map((item) => item.name)).toEqual(
			expect.arrayContaining(['Person 12', 'Person 120', 'Person 129']),
		);
		expect(searched.json(NODE_NAME)).toHaveLength(11);
	});

	test('From-list search passes the filter to the service', async () => {
		const created = await suite.service.client.contacts.create({
			instanceId: suite.instance.id,
			body: { phoneNumber: '+14155550499', name: 'Zoë Searchable' },
		});

		const search = await runListSearch(
			{ ...suite.node({ operation: 'get' }), method: 'searchContacts', filter: 'Searchable' },
			{ credentials: suite.service.credentials },
		);

		expect(search.results).toEqual([{ name: 'Zoë Searchable (+14155550499)', value: created.id }]);
	});

	test('404 for an unknown contact; an invalid number or username never reaches the service', async () => {
		const before = suite.service.sandbox.store.all('contacts').length;
		const missingRun = await run({ operation: 'get', contactId: byId('ct_missing') }, [{}], {
			onError: 'continueRegularOutput',
		});
		const invalidRun = await run(
			{ operation: 'create', phoneNumber: '={{ $json.phone }}' },
			[{ phone: '+14155550498' }, { phone: '+0 123' }],
			{ onError: 'continueRegularOutput' },
		);

		const badUsernameRun = await run({ operation: 'get', contactId: byId('@ma') }, [{}], {
			onError: 'continueRegularOutput',
		});

		const [missing] = missingRun.json(NODE_NAME);
		const [, invalid] = invalidRun.json(NODE_NAME);
		expect(missingRun.nodeError(NODE_NAME)).toBeUndefined();
		expect(missing.error).toBe('The contact was not found [item 0]');
		expect(badUsernameRun.json(NODE_NAME)[0].error).toBe(
			'Invalid value for "Contact" [item 0]: "@ma" is not a valid username: after the @ come 3 to 35 letters, digits, dots or underscores',
		);
		expect(invalid.error).toBe(
			'Invalid value for "Phone Number" [item 1]: "+0 123" is not a valid phone number: no country has the calling code it starts with',
		);
		expect(suite.service.sandbox.store.all('contacts')).toHaveLength(before + 1);
	});
});

describe('Contact on the wire (nock)', () => {
	const BASE_URL = 'http://127.0.0.1:8791';
	const credentials = { multichannelApi: { baseUrl: BASE_URL, apiKey: 'mcw_test_wire_3456' } };

	beforeAll(() => nock.disableNetConnect());
	afterAll(() => {
		nock.cleanAll();
		nock.enableNetConnect();
	});

	test('Get Many with a limit: GET …/contacts?limit=…&search=…, then the next cursor', async () => {
		const scope = nock(BASE_URL)
			.get('/api/v1/instances/inst_1/contacts')
			.query({ limit: '3', search: 'ana' })
			.reply(200, { data: [{ id: 'ct_1' }, { id: 'ct_2' }], nextCursor: 'c2' })
			.get('/api/v1/instances/inst_1/contacts')
			.query({ limit: '3', search: 'ana', cursor: 'c2' })
			.reply(200, { data: [{ id: 'ct_3' }, { id: 'ct_4' }], nextCursor: 'c3' });

		const result = await runNode(
			multichannelNode('contact', {
				operation: 'getAll',
				instanceId: byId('inst_1'),
				returnAll: false,
				limit: 3,
				filters: { search: 'ana' },
			}),
			{ credentials },
		);

		expect(result.error).toBeUndefined();
		expect(scope.isDone()).toBe(true);
		expect(result.json(NODE_NAME)).toEqual([{ id: 'ct_1' }, { id: 'ct_2' }, { id: 'ct_3' }]);
	});
});
