/**
 * No silent stop (SERVICE.md, 2026-11-25 "lifetime"), over real HTTP with time compressed: a disabled webhook keeps
 * its events and is pinged (a signed `ping`) at doubling intervals; the first acknowledged ping enables it again
 * and its backlog goes out oldest first, each event once; a receiver answering 404 for the whole `receiverGone`
 * window is disabled as `receiver_gone`, and a webhook disabled past the retention is deleted with what it kept;
 * a webhook turned off through the API is not pinged; what is kept is bounded.
 */
import {
	clientsFor,
	startReceiver,
	sleep,
	startTestSandbox,
	waitFor,
	type Receiver,
} from '../support/sandbox';
import type { Sandbox } from '../../sandbox/server';

let sandbox: Sandbox;
let clients: ReturnType<typeof clientsFor>;
let receiver: Receiver;
beforeAll(async () => {
	sandbox = await startTestSandbox({
		rateLimit: false,
		webhooks: {
			retryBaseMs: 10,
			maxRetryDelayMs: 20,
			maxAttempts: 2,
			disableAfterFailedDeliveries: 2,
			pingMinMs: 100,
			pingMaxMs: 400,
			receiverGoneMs: 300,
			retentionMs: 3000,
			upkeepMs: 20,
			maxHeldPerWebhook: 5,
		},
	});
	clients = clientsFor(sandbox.baseUrl, sandbox.keys!);
	receiver = await startReceiver();
	receiver.acknowledge = true;
});
afterAll(async () => {
	await sandbox.close();
	await receiver.close();
});

const at = (path: string) => receiver.received.filter((delivery) => delivery.path === `/${path}`);
const webhook = (id: string) => sandbox.store.get('webhooks', id);

async function register(path: string) {
	const hook = await clients.automation.webhooks.create({
		body: { url: `${receiver.url}/${path}`, events: ['*'], requireAcknowledgement: true },
	});
	receiver.secrets.push(hook.secret);
	return hook;
}

const publish = (name: string) =>
	clients.automation.events.publish({ body: { name, payload: {} } });

it('pings a disabled webhook at doubling intervals, enables it on the first acknowledged ping, then sends its backlog oldest first', async () => {
	let down = true;
	// The wait before the next ping, as the sandbox chose it when this one came (no other ping is made meanwhile).
	const intervals: Array<number | undefined> = [];
	receiver.respond = (delivery) => {
		if (delivery.path !== '/outage') return 200;
		if (delivery.event.type === 'ping') intervals.push(webhook(hook.id)?.pingIntervalMs);
		return down ? 503 : 200;
	};
	const hook = await register('outage');
	for (const name of ['one', 'two']) await publish(`outage.${name}`);
	await waitFor(() => webhook(hook.id)?.status === 'disabled', 5000, 'the webhook to be disabled');
	expect(webhook(hook.id)).toMatchObject({ disabledCode: 'failures' });
	for (const name of ['three', 'four']) await publish(`outage.${name}`);

	// Pings while it stays down: at growing intervals, capped.
	await waitFor(
		() => at('outage').filter((d) => d.event.type === 'ping').length >= 4,
		5000,
		'four pings',
	);
	const pings = at('outage').filter((delivery) => delivery.event.type === 'ping');
	expect(pings.every((ping) => ping.signature.valid)).toBe(true);
	const times = pings.map((ping) => Date.parse(ping.event.createdAt));
	const gaps = times.slice(1).map((time, index) => time - times[index]);
	expect(gaps[0]).toBeGreaterThanOrEqual(180);
	expect(gaps[1]).toBeGreaterThanOrEqual(380);
	// Doubling, capped at 400 ms. Not the gaps' upper bound (700 ms): a process stalled 300 ms (a loaded machine)
	// sends a ping late.
	expect(intervals.slice(0, 3)).toEqual([200, 400, 400]);
	expect(webhook(hook.id)?.status).toBe('disabled');

	down = false;
	await waitFor(() => webhook(hook.id)?.status === 'active', 5000, 'an acknowledged ping');
	const names = ['one', 'two', 'three', 'four'].map((name) => `automation.outage.${name}`);
	await waitFor(
		() =>
			names.every((name) => at('outage').some((d) => d.event.type === name && d.status === 200)),
		5000,
		'the backlog',
	);
	const delivered = at('outage').filter(
		(delivery) => delivery.status === 200 && delivery.event.type !== 'ping',
	);
	expect(delivered.map((delivery) => delivery.event.type)).toEqual(names);
});

// A receiver that never took the event: unreachable (a gateway's 502) or not knowing the webhook at the last
// attempt (404: n8n starting, its trigger not registered yet). Either way the event is kept, not dropped.
it.each([
	['was unreachable for all its attempts', 'quiet', 502],
	['got 404 at its last attempt (n8n starting)', 'starting', 404],
])(
	'keeps a lone event whose receiver %s, and delivers it once the receiver takes it',
	async (_case, path, status) => {
		let refusing = true;
		receiver.respond = (delivery) => (delivery.path === `/${path}` && refusing ? status : 200);
		const hook = await register(path);
		await publish(`${path}.lone`);
		await waitFor(
			() => webhook(hook.id)?.status === 'disabled',
			5000,
			'the webhook to be disabled',
		);
		expect(webhook(hook.id)?.disabledReason).toContain(
			`a delivery failed all 2 attempts (last: HTTP ${status})`,
		);
		refusing = false;
		const delivered = await receiver.waitForEvent(
			`automation.${path}.lone`,
			(delivery) => delivery.path === `/${path}` && delivery.status === 200,
		);
		expect(delivered.signature.valid).toBe(true);
		expect(webhook(hook.id)?.status).toBe('active');
	},
);

it('does not ping a webhook turned off through the API, but keeps its events', async () => {
	const hook = await register('off');
	await clients.automation.webhooks.update({ webhookId: hook.id, body: { enabled: false } });
	await publish('while.off');
	await sleep(400);
	expect(at('off')).toEqual([]);
	expect(webhook(hook.id)).toMatchObject({ status: 'disabled', disabledCode: 'api' });
	await clients.automation.webhooks.update({ webhookId: hook.id, body: { enabled: true } });
	await receiver.waitForEvent('automation.while.off', (delivery) => delivery.path === '/off');
});

it('keeps at most the bound of events for a disabled webhook, the newest', async () => {
	const hook = await register('bounded');
	await clients.automation.webhooks.update({ webhookId: hook.id, body: { enabled: false } });
	for (let n = 1; n <= 8; n++) await publish(`bounded.${n}`);
	const held = sandbox.store.all(
		'deliveries',
		(delivery) => delivery.webhookId === hook.id && delivery.status === 'held',
	);
	expect(held.map((delivery) => delivery.eventType)).toEqual(
		[4, 5, 6, 7, 8].map((n) => `automation.bounded.${n}`),
	);
});

it('disables a receiver answering 404 for the whole window as receiver_gone, and deletes it after the retention', async () => {
	receiver.respond = (delivery) => (delivery.path === '/gone' ? 404 : 200);
	const hook = await register('gone');
	// Two deliveries use up their attempts (disabled), then the pings keep hearing 404.
	await publish('gone.first');
	await publish('gone.second');
	await waitFor(
		() => webhook(hook.id)?.disabledCode === 'receiver_gone',
		5000,
		'the webhook to be disabled as receiver_gone',
	);
	await expect(clients.automation.webhooks.get({ webhookId: hook.id })).resolves.toMatchObject({
		status: 'disabled',
		disabledCode: 'receiver_gone',
		disabledReason: expect.stringContaining('404'),
	});
	await waitFor(() => webhook(hook.id) === undefined, 8000, 'the webhook to be deleted');
	expect(sandbox.store.all('deliveries', (delivery) => delivery.webhookId === hook.id)).toEqual([]);
}, 15_000);
