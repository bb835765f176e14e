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
