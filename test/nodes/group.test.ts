/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- a made-up key, which the tests look for in outputs */
/**
 * The Group resource of the Multichannel node, run as real workflows against the sandbox on loopback: every
 * operation with its output and the sandbox's resulting state; one exact request pinned with nock.
 */
import nock from 'nock';

import { runNode, runListSearch } from '../../dev/harness';
import { byId, expectNoSecrets, multichannelNode, NODE_NAME, useResource } from '../support/nodes';

// nock patches Node's http for the whole worker: undone when this file ends (test/nodes/quiet.test.ts).
afterAll(() => nock.restore());

const suite = useResource('group', { instance: 'Groups' });
const { run } = suite;
const stored = (id: unknown) => suite.service.sandbox.store.get('groups', id as string);

async function createGroup(subject: string) {
	const result = await run({
		operation: 'create',
		subject,
		participants: '+1 415 555 0301, 0044 20 7946 0301',
		simplify: false,
	});
	return result.json(NODE_NAME)[0] as { id: string };
}

describe('Group', () => {
	test('Create normalises the participants; Simplify keeps the essentials', async () => {
		const result = await run({
			operation: 'create',
			subject: 'Launch team',
			participants: '+1 (415) 555-0311, 0033 1 23 45 67 89',
			additionalFields: { description: 'Spring launch', announcementsOnly: true },
		});

		const [group] = result.json(NODE_NAME);
		expect(group).toEqual({
			id: expect.stringMatching(/@g\.us$/),
			instanceId: suite.instance.id,
			subject: 'Launch team',
			description: 'Spring launch',
			owner: suite.instance.phoneNumber,
			participantCount: 3,
			announcementsOnly: true,
			locked: false,
			createdAt: expect.any(String),
		});
		expect(stored(group.id)?.participants.map((participant) => participant.phoneNumber)).toEqual([
			suite.instance.phoneNumber,
			'+14155550311',
			'+33123456789',
		]);
		expectNoSecrets(result, [suite.service.apiKey]);
	});

	test('a participant that is not a number fails before the request', async () => {
		const before = suite.service.sandbox.store.all('groups').length;
		const result = await run({
			operation: 'create',
			subject: 'X',
			participants: '+14155550311, abc',
		});

		expect(result.error).toMatchObject({
			name: 'NodeOperationError',
			message: 'Invalid value for "Participants" [item 0]: "abc" is not a valid phone number',
		});
		expect(suite.service.sandbox.store.all('groups')).toHaveLength(before);
	});

	test('Get, Get Many and the From-list search (which depends on the instance)', async () => {
		const group = await createGroup('Findable group');

		const got = await run({ operation: 'get', groupId: byId(group.id), simplify: false });
		const many = await run({ operation: 'getAll', returnAll: true });
		const search = await runListSearch(
			{ ...suite.node({ operation: 'get' }), method: 'searchGroups', filter: 'FINDABLE' },
			{ credentials: suite.service.credentials },
		);

		expect(got.json(NODE_NAME)[0]).toMatchObject({ id: group.id, participants: expect.any(Array) });
		expect(many.json(NODE_NAME).map((item) => item.id)).toContain(group.id);
		expect(search.results).toEqual([{ name: 'Findable group', value: group.id }]);
	});

	test('Update changes subject, description and settings', async () => {
		const group = await createGroup('Old subject');

		const result = await run({
			operation: 'update',
			groupId: byId(group.id),
			updateFields: { subject: 'New subject', description: 'Now described', locked: true },
		});

		expect(result.json(NODE_NAME)[0]).toMatchObject({ subject: 'New subject', locked: true });
		expect(stored(group.id)).toMatchObject({
			subject: 'New subject',
			description: 'Now described',
			settings: { locked: true, announcementsOnly: false },
		});
	});

	test('Add, Promote, Demote and Remove participants', async () => {
		const group = await createGroup('Participants');
		const roleOf = (phone: string) =>
			stored(group.id)?.participants.find((participant) => participant.phoneNumber === phone)?.role;

		const added = await run({
			operation: 'addParticipants',
			groupId: byId(group.id),
			participants: '+1 415 555 0321, +1 415 555 0000',
		});
		expect(added.json(NODE_NAME)[0].results).toEqual([
			{ phoneNumber: '+14155550321', status: 'ok' },
			{ phoneNumber: '+14155550000', status: 'not_found' },
		]);
		expect(roleOf('+14155550321')).toBe('member');

		await run({
			operation: 'promoteParticipants',
			groupId: byId(group.id),
			participants: '+14155550321',
		});
		expect(roleOf('+14155550321')).toBe('admin');
		await run({
			operation: 'demoteParticipants',
			groupId: byId(group.id),
			participants: '+14155550321',
		});
		expect(roleOf('+14155550321')).toBe('member');
		const removed = await run({
			operation: 'removeParticipants',
			groupId: byId(group.id),
			participants: '+14155550321',
		});
		expect(removed.json(NODE_NAME)[0]).toMatchObject({
			results: [{ phoneNumber: '+14155550321', status: 'ok' }],
			group: { id: group.id, participantCount: 3 },
		});
		expect(roleOf('+14155550321')).toBeUndefined();
	});

	test('Get and Revoke Invite Code; Leave removes the group', async () => {
		const group = await createGroup('Invite');

		const code = await run({ operation: 'getInviteCode', groupId: byId(group.id) });
		const revoked = await run({ operation: 'revokeInviteCode', groupId: byId(group.id) });
		expect(code.json(NODE_NAME)[0]).toMatchObject({ groupId: group.id, code: expect.any(String) });
		expect(revoked.json(NODE_NAME)[0].code).not.toBe(code.json(NODE_NAME)[0].code);
		expect(stored(group.id)?.inviteCode).toBe(revoked.json(NODE_NAME)[0].code);

		const left = await run({ operation: 'leave', groupId: byId(group.id) });
		expect(left.output(NODE_NAME)).toEqual([
			{ json: { left: true, id: group.id }, pairedItem: { item: 0 } },
		]);
		expect(stored(group.id)).toBeUndefined();
	});

	test('404 for a group that is gone, continuing with the next item', async () => {
		const group = await createGroup('Still here');

		const result = await run(
			{ operation: 'get', groupId: byId('={{ $json.group }}') },
			[{ group: '120363000000000000@g.us' }, { group: group.id }],
			{ onError: 'continueRegularOutput' },
		);

		const [missing, found] = result.output(NODE_NAME);
		expect(missing.json.error).toBe('The group was not found [item 0]');
		expect(found).toMatchObject({ json: { id: group.id }, pairedItem: { item: 1 } });
	});
});

describe('Group on the wire (nock)', () => {
	const BASE_URL = 'http://127.0.0.1:8790';
	const credentials = { multichannelApi: { baseUrl: BASE_URL, apiKey: 'mcw_test_wire_9012' } };

	beforeAll(() => nock.disableNetConnect());
	afterAll(() => {
		nock.cleanAll();
		nock.enableNetConnect();
	});

	test('Add Participants: POST …/participants with the action and the normalised numbers', async () => {
		const seen: unknown[] = [];
		nock(BASE_URL)
			.post('/api/v1/instances/inst_1/groups/1203630%40g.us/participants')
			.reply(200, (_uri, body) => {
				seen.push(body);
				return { results: [{ phoneNumber: '+14155550123', status: 'ok' }] };
			});

		const result = await runNode(
			multichannelNode('group', {
				operation: 'addParticipants',
				instanceId: byId('inst_1'),
				groupId: byId('1203630@g.us'),
				participants: '001-415-555-0123',
			}),
			{ credentials },
		);

		expect(result.error).toBeUndefined();
		expect(seen).toEqual([{ action: 'add', participants: ['+14155550123'] }]);
		expect(result.json(NODE_NAME)).toEqual([
			{ results: [{ phoneNumber: '+14155550123', status: 'ok' }] },
		]);
	});
});
