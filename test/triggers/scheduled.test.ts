/**
 * The Multichannel Trigger on "message scheduled and sent at its time" (`message.scheduled_sent`): the sandbox
 * delivers the signed webhook over loopback to the stand-in for n8n's webhook endpoint; the trigger runs once, when
 * the scheduled message goes, and not when it is scheduled or for a message sent at once.
 */
import type { Sandbox } from '../../sandbox/server';
import { clientsFor, connectedInstance, startTestSandbox, waitFor } from '../support/sandbox';
import { N8nEndpoint, TRIGGER_TYPES, TriggerUnderTest } from '../../dev/harness/triggers';

type Keys = NonNullable<Sandbox['keys']>;

// Real time moved ahead by hand, a little: deliveries are signed with the sandbox's time, which the trigger checks
// against its own (300 s at most apart).
let ahead = 0;
let sandbox: Sandbox;
let endpoint: N8nEndpoint;
beforeAll(async () => {
	sandbox = await startTestSandbox({
		rateLimit: false,
		now: () => Date.now() + ahead,
		scheduled: { tickMs: 50 },
	});
	endpoint = await new N8nEndpoint().start();
});
afterAll(async () => {
	await endpoint.close();
	await sandbox.close();
});

it('runs once when a scheduled message goes at its time, with when it was asked to go', async () => {
	const keys = sandbox.keys as Keys;
	const client = clientsFor(sandbox.baseUrl, keys).workspace;
	const instanceId = (await connectedInstance(sandbox, 'Reminders', '+14155550190')).id;
	const trigger = new TriggerUnderTest(endpoint, {
		type: TRIGGER_TYPES.messaging,
		name: 'Scheduled sent',
		credentials: { multichannelApi: { baseUrl: sandbox.baseUrl, apiKey: keys.workspace } },
		parameters: { events: ['message.scheduled_sent'], options: {} },
	});
	await trigger.activate();
	try {
		await client.messages.sendText({ instanceId, body: { to: '+14155550191', text: 'Now' } });
		const sendAt = new Date(Date.now() + 61_000).toISOString();
		const scheduled = await client.messages.sendText({
			instanceId,
			body: { to: '+14155550191', text: 'Later', sendAt },
		});
		ahead = 62_000;
		const [execution] = await waitFor(
			() => (endpoint.executions(trigger).length >= 1 ? endpoint.executions(trigger) : undefined),
			10_000,
			'the scheduled send to start the trigger',
		);
		expect(execution.items?.[0].json).toEqual(
			expect.objectContaining({
				type: 'message.scheduled_sent',
				data: expect.objectContaining({ id: scheduled.id, sendAt, content: { text: 'Later' } }),
			}),
		);
		// The message sent at once, and the scheduled one, have moved on since (read), and started nothing more.
		await waitFor(
			() =>
				sandbox.events.filter((event) => event.type === 'message.read').length >= 2 || undefined,
			10_000,
			'both messages read',
		);
		expect(endpoint.executions(trigger)).toHaveLength(1);
	} finally {
		await trigger.deactivate();
	}
});
