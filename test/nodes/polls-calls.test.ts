/**
 * Poll results and calls through the Multichannel node, run as real workflows through n8n-core against the
 * sandbox on loopback: Message → Get Poll Results (the tally after changed and withdrawn votes, as an AI tool
 * with $fromAI), Call → Reject (with a text to the caller), Instance → Update (the reject-calls setting, kept by
 * the sandbox across a restart). The exact requests are pinned with nock in polls-calls-wire.test.ts.
 */
/* eslint-disable @n8n/community-nodes/no-restricted-imports -- tests run in plain Node, never inside n8n */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../dev/harness';
import { raw, startTestSandbox, waitFor } from '../support/sandbox';
import {
	byId,
	failure,
	multichannelNode,
	NODE_NAME,
	registerToolVariant,
	startService,
	type TestService,
} from '../support/nodes';

let service: TestService;
let instanceId: string;

const post = async (path: string, body: unknown) => {
	const answer = await raw(service.sandbox.baseUrl, 'POST', path, { key: service.apiKey, body });
	if (answer.status >= 300) throw new Error(`${path}: ${JSON.stringify(answer.body)}`);
	return answer.body as IDataObject;
};
const run = async (
	resource: string,
	parameters: IDataObject,
	items?: IDataObject[],
	type?: string,
) =>
	await runNode(
		multichannelNode(
			resource,
			{ instanceId: byId(instanceId), ...parameters },
			type ? { type } : {},
		),
		{ credentials: service.credentials, items },
	);

beforeAll(async () => {
	service = await startService();
	instanceId = (await service.connectedInstance('Polls and calls', '+14155550400')).id;
});
afterAll(async () => await service?.close());

describe('Message → Get Poll Results', () => {
	let pollId: string;
	beforeAll(async () => {
		const group = await service.client.groups.create({
			instanceId,
			body: {
				subject: 'Team lunch',
				participants: ['+14155550401', '+14155550402', '+14155550403'],
			},
		});
		const poll = await service.client.messages.sendPoll({
			instanceId,
			body: {
				to: group.id,
				question: 'Where?',
				options: ['Pizza', 'Sushi', 'Salad'],
				multipleAnswers: true,
			},
		});
		pollId = poll.id;
		const vote = (from: string, options: Array<string | number>) =>
			post(`/sandbox/instances/${instanceId}/messages/${pollId}/vote`, { from, options });
		await vote('+14155550401', ['Pizza']);
		await vote('+14155550402', ['Sushi', 'Salad']);
		await vote('+14155550401', [1]); // changed: Pizza → Sushi
		await vote('+14155550403', ['Salad']);
		await vote('+14155550403', []); // withdrawn
	});

	const expectedTally = () =>
		expect.objectContaining({
			messageId: pollId,
			question: 'Where?',
			totalVoters: 2,
			options: [
				{ index: 0, name: 'Pizza', votes: 0, voters: [] },
				{
					index: 1,
					name: 'Sushi',
					votes: 2,
					voters: [
						{ voter: '+14155550402', votedAt: expect.any(String) },
						{ voter: '+14155550401', votedAt: expect.any(String) },
					],
				},
				{
					index: 2,
					name: 'Salad',
					votes: 1,
					voters: [{ voter: '+14155550402', votedAt: expect.any(String) }],
				},
			],
		});

	test('the current tally per option with its voters: a changed vote counts once, a withdrawn one not at all', async () => {
		const result = await run('message', { operation: 'getPollResults', messageId: pollId });
		expect(result.error).toBeUndefined();
		expect(result.json(NODE_NAME)).toEqual([expectedTally()]);
	});

	test('as an AI tool: the poll from $fromAI', async () => {
		const { type } = await registerToolVariant();
		const result = await run(
			'message',
			{
				operation: 'getPollResults',
				messageId: "={{ $fromAI('messageId', 'The poll message ID', 'string') }}",
			},
			[{ messageId: pollId }],
			type,
		);
		expect(result.error).toBeUndefined();
		expect(result.json(NODE_NAME)).toEqual([expectedTally()]);
	});

	test('a message that is not a poll: an error naming it, and the item', async () => {
		const text = await service.client.messages.sendText({
			instanceId,
			body: { to: '+14155550404', text: 'Not a poll' },
		});
		const result = await run('message', { operation: 'getPollResults', messageId: text.id });
		expect(failure(result).message).toMatch(/not a poll/i);
		expect(failure(result).context).toMatchObject({ itemIndex: 0 });
	});
});

describe('Call → Reject and Instance → Update', () => {
	const caller = '+14155550410';
	const ring = async (media = 'voice') =>
		(await post(`/sandbox/instances/${instanceId}/calls`, { from: caller, media })) as {
			id: string;
			status: string;
		};

	test('Reject ends a ringing call as rejected and sends the caller the text', async () => {
		const call = await ring('video');
		expect(call.status).toBe('ringing');
		const result = await run('call', {
			operation: 'reject',
			callId: call.id,
			additionalFields: { text: 'Busy now, write to me here' },
		});
		expect(result.error).toBeUndefined();
		const [rejected] = result.json(NODE_NAME);
		expect(rejected).toMatchObject({
			id: call.id,
			status: 'rejected',
			rejectedBy: 'api',
			media: 'video',
			isGroup: false,
			from: caller,
		});
		const message = await service.client.messages.get({
			instanceId,
			messageId: rejected.rejectMessageId as string,
		});
		expect(message).toMatchObject({
			to: caller,
			direction: 'outbound',
			content: { text: 'Busy now, write to me here' },
		});

		const again = await run('call', { operation: 'reject', callId: call.id });
		expect(failure(again).message).toMatch(/no longer ringing/);
	});

	test('Update turns on rejecting every call with a text; the setting is in the instance', async () => {
		const result = await run('instance', {
			operation: 'update',
			updateFields: { rejectCalls: true, rejectCallsText: 'We only take messages here' },
		});
		expect(result.error).toBeUndefined();
		expect(result.json(NODE_NAME)[0]).toMatchObject({
			id: instanceId,
			settings: { rejectCalls: true, rejectCallsText: 'We only take messages here' },
		});
		const call = await ring();
		expect(call).toMatchObject({ status: 'rejected', rejectedBy: 'setting' });
		const sent = await service.client.messages.list({
			instanceId,
			query: { chatId: caller, direction: 'outbound', limit: 1 },
		});
		expect(sent.data[0].content).toEqual({ text: 'We only take messages here' });

		const off = await run('instance', {
			operation: 'update',
			updateFields: { rejectCalls: false },
		});
		expect(off.json(NODE_NAME)[0].settings).toEqual({
			rejectCalls: false,
			rejectCallsText: 'We only take messages here',
			handOverQuietMinutes: 30,
		});
		expect((await ring()).status).toBe('ringing');
	});

	test('Update with nothing to change is refused before any request', async () => {
		const result = await run('instance', { operation: 'update', updateFields: {} });
		expect(failure(result).name).toBe('NodeOperationError');
	});
});

test('the sandbox keeps the setting, votes and calls across a restart; a call left ringing is missed after its ring time', async () => {
	const dataFile = join(mkdtempSync(join(tmpdir(), 'sandbox-polls-calls-')), 'state.json');
	const first = await startTestSandbox({
		rateLimit: false,
		dataFile,
		simulation: { callRingMs: 1500 },
	});
	const key = (first.keys as { workspace: string }).workspace;
	const call = (
		sandbox: typeof first,
		method: 'GET' | 'POST' | 'PATCH',
		path: string,
		body?: unknown,
	) => raw(sandbox.baseUrl, method, path, { key, body });
	const instance = (await call(first, 'POST', '/api/v1/instances', { name: 'Kept' })).body as {
		id: string;
	};
	await call(first, 'POST', `/api/v1/instances/${instance.id}/connect`, { method: 'qr' });
	await call(first, 'POST', `/sandbox/instances/${instance.id}/scan`, {
		phoneNumber: '+14155550420',
	});
	await call(first, 'PATCH', `/api/v1/instances/${instance.id}`, {
		rejectCallsText: 'Kept text',
		handOverQuietMinutes: 12,
	});
	const poll = (
		await call(first, 'POST', `/api/v1/instances/${instance.id}/messages/poll`, {
			to: '+14155550421',
			question: 'Kept?',
			options: ['Yes', 'No'],
		})
	).body as { id: string };
	await call(first, 'POST', `/sandbox/instances/${instance.id}/messages/${poll.id}/vote`, {
		options: ['No'],
	});
	const ringing = (
		await call(first, 'POST', `/sandbox/instances/${instance.id}/calls`, { from: '+14155550422' })
	).body as { id: string };
	await first.close();

	const second = await startTestSandbox({
		rateLimit: false,
		dataFile,
		simulation: { callRingMs: 1500 },
	});
	try {
		const got = (await call(second, 'GET', `/api/v1/instances/${instance.id}`)).body as IDataObject;
		expect(got.settings).toEqual({
			rejectCalls: false,
			rejectCallsText: 'Kept text',
			handOverQuietMinutes: 12,
		});
		const results = (
			await call(second, 'GET', `/api/v1/instances/${instance.id}/messages/${poll.id}/poll-results`)
		).body as { options: Array<{ votes: number }> };
		expect(results.options.map((option) => option.votes)).toEqual([0, 1]);
		// The call rang through the restart: it is missed once its ring time is over, not left ringing.
		const missed = await waitFor(
			() => second.events.find((event) => event.type === 'call.missed'),
			20_000,
			'the call that rang through the restart to be missed',
		);
		expect(missed.data).toMatchObject({ id: ringing.id, status: 'missed' });
	} finally {
		await second.close();
	}
});
