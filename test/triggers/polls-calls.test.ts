/**
 * Poll votes and calls reaching the Multichannel Trigger: the sandbox delivers signed webhooks over loopback
 * to the stand-in for n8n's webhook endpoint. A vote, a changed vote (saying it replaced one) and a withdrawn
 * vote each start it once; Poll Message IDs keeps one poll's votes; a call that rings and is missed, one
 * rejected, and Call Types keeping video calls.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox/server';
import { clientsFor, connectedInstance, raw, startTestSandbox, waitFor } from '../support/sandbox';
import { N8nEndpoint, TRIGGER_TYPES, TriggerUnderTest } from '../../dev/harness/triggers';

type Keys = NonNullable<Sandbox['keys']>;

let sandbox: Sandbox;
let keys: Keys;
let endpoint: N8nEndpoint;
let client: ReturnType<typeof clientsFor>['workspace'];
let instanceId: string;
const active: TriggerUnderTest[] = [];

const sandboxCall = async (path: string, body: unknown = {}) => {
	const answer = await raw(sandbox.baseUrl, 'POST', path, { key: keys.workspace, body });
	expect(answer.status).toBeLessThan(300);
	return answer.body as IDataObject;
};

beforeAll(async () => {
	sandbox = await startTestSandbox({ rateLimit: false, simulation: { callRingMs: 60_000 } });
	keys = sandbox.keys as Keys;
	client = clientsFor(sandbox.baseUrl, keys).workspace;
	endpoint = await new N8nEndpoint().start();
	instanceId = (await connectedInstance(sandbox, 'Polls', '+14155550500')).id;
});
afterAll(async () => {
	for (const node of active) await node.deactivate();
	await endpoint.close();
	await sandbox.close();
});

async function activated(events: string[], options: INodeParameters, name: string) {
	const node = new TriggerUnderTest(endpoint, {
		type: TRIGGER_TYPES.messaging,
		name,
		credentials: { multichannelApi: { baseUrl: sandbox.baseUrl, apiKey: keys.workspace } },
		parameters: { events, options },
	});
	await node.activate();
	active.push(node);
	return node;
}

const outputs = async (node: TriggerUnderTest, count: number, what: string) =>
	(
		await waitFor(
			() => (endpoint.executions(node).length >= count ? endpoint.executions(node) : undefined),
			15_000,
			what,
		)
	).map((delivery) => delivery.items?.[0].json as IDataObject);

/**
 * Each event is its own delivery, and deliveries are not promised in order (../shared/SERVICE.md): what arrived is
 * compared as a list sorted the same way on both sides, so that each entry must arrive exactly as often as expected.
 */
const sorted = (entries: unknown[][]) => entries.map((entry) => JSON.stringify(entry)).sort();

it('a vote, a changed vote and a withdrawn one each start the trigger once; Poll Message IDs keeps one poll', async () => {
	const poll = async (question: string) =>
		await client.messages.sendPoll({
			instanceId,
			body: { to: '+14155550501', question, options: ['Yes', 'No', 'Maybe'] },
		});
	const survey = await poll('Happy with the support?');
	const other = await poll('Lunch?');
	const onePoll = await activated(['poll.voted'], { pollMessageIds: survey.id }, 'One poll');
	const allPolls = await activated(['poll.voted'], {}, 'All polls');

	const vote = async (messageId: string, options: Array<string | number>) =>
		await sandboxCall(`/sandbox/instances/${instanceId}/messages/${messageId}/vote`, { options });
	await vote(survey.id, ['No']);
	await vote(survey.id, [0]);
	await vote(survey.id, []);
	await vote(other.id, ['Maybe']);

	const votes = (await outputs(onePoll, 3, 'three votes on the survey')).map((event) => event.data);
	const base = { instanceId, messageId: survey.id, voter: '+14155550501' };
	// In any order: each vote says which it replaced, and no vote fits two of these (their options differ).
	expect(votes).toHaveLength(3);
	expect(votes).toEqual(
		expect.arrayContaining([
			expect.objectContaining({
				...base,
				options: [{ index: 1, name: 'No' }],
				replacesVote: false,
				withdrawn: false,
				previousOptions: [],
			}),
			expect.objectContaining({
				...base,
				options: [{ index: 0, name: 'Yes' }],
				replacesVote: true,
				previousOptions: [{ index: 1, name: 'No' }],
			}),
			expect.objectContaining({
				...base,
				options: [],
				withdrawn: true,
				replacesVote: true,
				previousOptions: [{ index: 0, name: 'Yes' }],
			}),
		]),
	);
	const everyVote = await outputs(allPolls, 4, 'every vote on both polls');
	expect(
		sorted(everyVote.map((event) => [event.type, (event.data as IDataObject).messageId])),
	).toEqual(
		sorted([
			['poll.voted', survey.id],
			['poll.voted', survey.id],
			['poll.voted', survey.id],
			['poll.voted', other.id],
		]),
	);
	// The other poll's vote reached the filtered trigger too, and was skipped.
	await waitFor(() => endpoint.of(onePoll).length >= 4 || undefined, 15_000, 'the fourth delivery');
	expect(endpoint.executions(onePoll)).toHaveLength(3);
});

it('calls: received then missed when the caller hangs up, received then rejected; Call Types keeps video calls', async () => {
	const calls = await activated(['call.received', 'call.missed', 'call.rejected'], {}, 'Calls');
	const video = await activated(['call.received'], { callTypes: ['video'] }, 'Video calls');

	const voice = await sandboxCall(`/sandbox/instances/${instanceId}/calls`, {
		from: '+14155550502',
		media: 'voice',
	});
	await sandboxCall(`/sandbox/instances/${instanceId}/calls/${String(voice.id)}/hang-up`);
	const seen = await sandboxCall(`/sandbox/instances/${instanceId}/calls`, {
		from: '+14155550503',
		media: 'video',
	});
	await client.calls.reject({ instanceId, callId: String(seen.id), body: { text: 'Later' } });

	const events = await outputs(calls, 4, 'four call events');
	expect(sorted(events.map((event) => [event.type, (event.data as IDataObject).id]))).toEqual(
		sorted([
			['call.received', voice.id],
			['call.missed', voice.id],
			['call.received', seen.id],
			['call.rejected', seen.id],
		]),
	);
	const event = (type: string, id: unknown) =>
		events.find(
			(found) => found.type === type && (found.data as IDataObject).id === id,
		) as IDataObject;
	expect(event('call.received', voice.id).data).toMatchObject({
		from: '+14155550502',
		media: 'voice',
		isGroup: false,
		status: 'ringing',
	});
	expect(event('call.rejected', seen.id).data).toMatchObject({
		status: 'rejected',
		rejectedBy: 'api',
	});
	// Received, then missed or rejected: by the events' times, whatever order their deliveries came in.
	for (const [id, end] of [
		[voice.id, 'call.missed'],
		[seen.id, 'call.rejected'],
	] as const)
		expect(String(event('call.received', id).createdAt) <= String(event(end, id).createdAt)).toBe(
			true,
		);
	const videoOnly = await outputs(video, 1, 'the video call');
	expect(videoOnly.map((event) => (event.data as IDataObject).id)).toEqual([seen.id]);
	await waitFor(() => endpoint.of(video).length >= 2 || undefined, 15_000, 'both received calls');
	expect(endpoint.executions(video)).toHaveLength(1);
});
