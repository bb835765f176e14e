/**
 * Taps on reply buttons and list rows reaching the Multichannel Trigger: the sandbox delivers signed webhooks
 * over loopback to the stand-in for n8n's webhook endpoint (n8n-core's `WebhookContext`). The reply is at the
 * top level of the output, with or without "Output Only Data", and "Only Replies" skips everything else.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox/server';
import {
	clientsFor,
	connectedInstance,
	raw,
	sleep,
	startTestSandbox,
	waitFor,
} from '../support/sandbox';
import { N8nEndpoint, TRIGGER_TYPES, TriggerUnderTest } from '../../dev/harness/triggers';

type Keys = NonNullable<Sandbox['keys']>;

let sandbox: Sandbox;
let keys: Keys;
let endpoint: N8nEndpoint;
let client: ReturnType<typeof clientsFor>['workspace'];
let instanceId: string;
const active: TriggerUnderTest[] = [];

const sandboxCall = (path: string, body: unknown = {}) =>
	raw(sandbox.baseUrl, 'POST', path, { key: keys.workspace, body });

beforeAll(async () => {
	sandbox = await startTestSandbox({ rateLimit: false });
	keys = sandbox.keys as Keys;
	client = clientsFor(sandbox.baseUrl, keys).workspace;
	endpoint = await new N8nEndpoint().start();
	instanceId = (await connectedInstance(sandbox, 'Replies', '+14155550190')).id;
});
afterAll(async () => {
	for (const node of active) await node.deactivate();
	await endpoint.close();
	await sandbox.close();
});

async function activated(options: INodeParameters, name: string) {
	const node = new TriggerUnderTest(endpoint, {
		type: TRIGGER_TYPES.messaging,
		name,
		credentials: { multichannelApi: { baseUrl: sandbox.baseUrl, apiKey: keys.workspace } },
		parameters: { events: ['message.received'], options },
	});
	await node.activate();
	active.push(node);
	return node;
}

it('a tap starts the trigger with the reply at the top level; Only Replies skips plain messages', async () => {
	const everything = await activated({}, 'All received');
	const onlyReplies = await activated({ onlyReplies: true, onlyData: true }, 'Replies only');

	const sent = await client.messages.sendButtons({
		instanceId,
		body: {
			to: '+14155550191',
			text: 'Approve the refund of order 1042?',
			buttons: [
				{ id: 'approve', title: 'Approve' },
				{ id: 'decline', title: 'Decline' },
			],
		},
	});
	const plain = await sandboxCall(`/sandbox/instances/${instanceId}/inbound`, {
		from: '+14155550191',
		text: 'Just a question',
	});
	expect(plain.status).toBe(201);
	const tap = await sandboxCall(`/sandbox/instances/${instanceId}/messages/${sent.id}/tap`, {
		id: 'approve',
	});
	expect(tap.status).toBe(201);
	const reply = { type: 'button', id: 'approve', title: 'Approve', toMessageId: sent.id };

	const all = await waitFor(
		() =>
			endpoint.executions(everything).length >= 2 ? endpoint.executions(everything) : undefined,
		5000,
		'both received messages to start the trigger without the option',
	);
	const tapped = all.map((delivery) => delivery.items?.[0].json).find((json) => json?.reply);
	expect(tapped).toEqual(
		expect.objectContaining({
			type: 'message.received',
			reply,
			data: expect.objectContaining({ id: (tap.body as { id: string }).id, reply }),
		}),
	);

	const [onlyTap] = await waitFor(
		() =>
			endpoint.executions(onlyReplies).length >= 1 ? endpoint.executions(onlyReplies) : undefined,
		5000,
		'the tap to start the trigger with Only Replies',
	);
	expect(onlyTap.items?.map((item) => item.json)).toEqual([
		expect.objectContaining({ reply, from: '+14155550191', type: 'reply', direction: 'inbound' }),
	]);
	await sleep(200);
	// The plain message reached it too, and was acknowledged without an execution.
	expect(endpoint.of(onlyReplies)).toHaveLength(2);
	expect(endpoint.executions(onlyReplies)).toHaveLength(1);
	const skipped = endpoint.of(onlyReplies).find((delivery) => !delivery.items);
	expect(skipped).toMatchObject({ status: 200 });
	expect(JSON.parse(skipped?.responseBody ?? '{}')).toMatchObject({
		executed: false,
		reason: 'not a reply to buttons or a list',
	});
});

it('routes taps and answers: Reply IDs pick a workflow’s own taps, No Taps skips every tap, and an answer Send and Wait took starts no trigger unless asked', async () => {
	const appointments = await activated(
		{ onlyReplies: true, taps: 'matching', replyIds: 'appointment-*, survey-yes' },
		'Appointments',
	);
	const files = await activated({ taps: 'none' }, 'Files, no taps');
	const everyTap = await activated({ taps: 'all', onlyReplies: true }, 'Every tap');
	const withAnswers = await activated({ includeAnswersTaken: true }, 'With answers taken');

	const to = '+14155550192';
	const buttons = async (ids: string[]) =>
		await client.messages.sendButtons({
			instanceId,
			body: { to, text: 'Choose', buttons: ids.map((id) => ({ id, title: id })) },
		});
	const tapOn = async (messageId: string, id: string) => {
		const answer = await sandboxCall(`/sandbox/instances/${instanceId}/messages/${messageId}/tap`, {
			id,
		});
		expect(answer.status).toBe(201);
		return (answer.body as { id: string }).id;
	};
	const appointment = await buttons(['appointment-move', 'appointment-confirm']);
	const refund = await buttons(['approve', 'decline']);
	const survey = await buttons(['survey-yes', 'survey-no']);
	// Send and Wait's registration on the refund question: its tap is taken as the answer.
	await client.answers.register({
		instanceId,
		body: {
			messageId: refund.id,
			accepts: ['reply'],
			url: `${endpoint.url}/answers-elsewhere`,
			secret: 'b'.repeat(32),
			expiresAt: new Date(Date.now() + 5 * 60_000).toISOString(),
		},
	});

	const moved = await tapOn(appointment.id, 'appointment-move');
	const approved = await tapOn(refund.id, 'approve');
	const surveyed = await tapOn(survey.id, 'survey-yes');
	const declined = await tapOn(survey.id, 'survey-no');
	const text = await sandboxCall(`/sandbox/instances/${instanceId}/inbound`, {
		from: to,
		text: 'Hi',
	});
	const texted = (text.body as { id: string }).id;

	// Every trigger heard all five; what each started for:
	const started = (node: TriggerUnderTest) =>
		endpoint
			.executions(node)
			.map((delivery) => (delivery.items?.[0].json.data as { id: string }).id);
	await waitFor(
		() =>
			[appointments, files, everyTap, withAnswers].every((node) => endpoint.of(node).length === 5),
		5000,
		'five deliveries to each trigger',
	);
	expect(started(appointments).sort()).toEqual([moved, surveyed].sort());
	expect(started(files)).toEqual([texted]);
	expect(started(everyTap).sort()).toEqual([moved, surveyed, declined].sort());
	expect(started(withAnswers).sort()).toEqual([moved, approved, surveyed, declined, texted].sort());

	const reasons = (node: TriggerUnderTest) =>
		endpoint
			.of(node)
			.filter((delivery) => !delivery.items)
			.map((delivery) => (JSON.parse(delivery.responseBody) as { reason: string }).reason)
			.sort();
	expect(reasons(appointments)).toEqual(
		[
			'a tap on "survey-no", not one of Reply IDs',
			'an answer taken by Send and Wait (answeredQuestion)',
			'not a reply to buttons or a list',
		].sort(),
	);
	expect(reasons(files)).toEqual(
		[
			'a tap (Taps on Buttons and Lists: No Taps)',
			'a tap (Taps on Buttons and Lists: No Taps)',
			'a tap (Taps on Buttons and Lists: No Taps)',
			'an answer taken by Send and Wait (answeredQuestion)',
		].sort(),
	);
});

it('an answer Send and Wait refused (its sender may not answer) starts no trigger, and the skip says it was refused', async () => {
	const refusing = await activated({}, 'Refused answers');
	const to = '+14155550193';
	const question = await client.messages.sendButtons({
		instanceId,
		body: { to, text: 'Approve?', buttons: [{ id: 'yes', title: 'Yes' }] },
	});
	await client.answers.register({
		instanceId,
		body: {
			messageId: question.id,
			accepts: ['reply'],
			url: `${endpoint.url}/answers-elsewhere`,
			secret: 'b'.repeat(32),
			expiresAt: new Date(Date.now() + 5 * 60_000).toISOString(),
			allowedToAnswer: ['+14155550100'],
		},
	});
	const tap = await sandboxCall(`/sandbox/instances/${instanceId}/messages/${question.id}/tap`, {
		id: 'yes',
	});
	expect(tap.status).toBe(201);

	const [skipped] = await waitFor(
		() => (endpoint.of(refusing).length >= 1 ? endpoint.of(refusing) : undefined),
		5000,
		'the refused tap to reach the trigger',
	);
	expect(skipped.items).toBeUndefined();
	expect(JSON.parse(skipped.responseBody)).toMatchObject({
		executed: false,
		reason: 'an answer Send and Wait refused: its sender may not answer (answeredQuestion.refused)',
	});
});
