/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- a made-up key, which the tests look for in outputs */
/**
 * Poll results, calls and the instance's call setting on the wire, with nock: the exact requests of Message →
 * Get Poll Results, Call → Reject and Instance → Update. The same operations against the sandbox are in
 * polls-calls.test.ts.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../dev/harness';
import { nockOnly } from '../support/client';
import { byId, expectNoSecrets, multichannelNode, NODE_NAME } from '../support/nodes';

// nock patches Node's http for the whole worker: undone when this file ends (test/nodes/quiet.test.ts).
afterAll(() => nock.restore());

describe('Poll results and calls on the wire (nock)', () => {
	const BASE_URL = 'http://127.0.0.1:8791';
	const API_KEY = 'mcw_test_polls_calls_4321';
	const credentials = { multichannelApi: { baseUrl: BASE_URL, apiKey: API_KEY } };
	const seen: Array<{ method: string; path: string; headers: IDataObject; body: unknown }> = [];

	const serve = (method: 'get' | 'post' | 'patch', answer: object) => {
		const scope = nock(BASE_URL).persist();
		const paths = /^\/api\/v1\/instances\/inst_1/;
		const route =
			method === 'get'
				? scope.get(paths)
				: method === 'post'
					? scope.post(paths)
					: scope.patch(paths);
		route.reply(function (path, body) {
			seen.push({ method: this.req.method, path, headers: this.req.headers, body });
			return [200, answer];
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
	const call = {
		id: 'call_1',
		instanceId: 'inst_1',
		from: '+14155550123',
		chatId: '14155550123@s.whatsapp.net',
		media: 'voice',
		isGroup: false,
		status: 'rejected',
		createdAt: '2026-11-25T10:00:00.000Z',
	};

	nockOnly();
	beforeEach(() => (seen.length = 0));

	test('Message → Get Poll Results: GET …/messages/{id}/poll-results, the answer as it is', async () => {
		const results = {
			instanceId: 'inst_1',
			messageId: 'msg_poll',
			question: 'Lunch?',
			options: [{ index: 0, name: 'Yes', votes: 1, voters: [{ voter: '+1415', votedAt: 'x' }] }],
			totalVoters: 1,
			updatedAt: 'x',
		};
		serve('get', results);
		const result = await run('message', { operation: 'getPollResults', messageId: ' msg_poll ' });
		expect(seen.map(({ method, path }) => `${method} ${path}`)).toEqual([
			'GET /api/v1/instances/inst_1/messages/msg_poll/poll-results',
		]);
		expect(seen[0].headers).toMatchObject({ authorization: `Bearer ${API_KEY}` });
		expect(result.json(NODE_NAME)).toEqual([results]);
	});

	test('Call → Reject: POST …/calls/{id}/reject with the text, or an empty body without one', async () => {
		serve('post', call);
		await run('call', {
			operation: 'reject',
			callId: 'call_1',
			additionalFields: { text: ' Later ' },
		});
		await run('call', { operation: 'reject', callId: 'call_1' });
		expect(seen.map(({ method, path, body }) => [`${method} ${path}`, body])).toEqual([
			['POST /api/v1/instances/inst_1/calls/call_1/reject', { text: 'Later' }],
			['POST /api/v1/instances/inst_1/calls/call_1/reject', {}],
		]);
	});

	test('Instance → Update: PATCH /instances/{id} with the settings; an emptied text is null', async () => {
		serve('patch', { id: 'inst_1', settings: { rejectCalls: true, rejectCallsText: null } });
		await run('instance', {
			operation: 'update',
			updateFields: { rejectCalls: true, rejectCallsText: 'No calls, please write' },
		});
		await run('instance', { operation: 'update', updateFields: { rejectCallsText: ' ' } });
		await run('instance', { operation: 'update', updateFields: { handOverQuietMinutes: 10 } });
		expect(seen.map(({ method, path, body }) => [`${method} ${path}`, body])).toEqual([
			[
				'PATCH /api/v1/instances/inst_1',
				{ rejectCalls: true, rejectCallsText: 'No calls, please write' },
			],
			['PATCH /api/v1/instances/inst_1', { rejectCallsText: null }],
			['PATCH /api/v1/instances/inst_1', { handOverQuietMinutes: 10 }],
		]);
	});
});
