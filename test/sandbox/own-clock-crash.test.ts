/* eslint-disable @n8n/community-nodes/no-restricted-imports -- tests run in plain Node, never inside n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
	bundleSandboxProcess,
	SandboxProcess,
	type ProcessOptions,
} from '../support/killed-sandbox';
import {
	clientsFor,
	connectedInstance,
	raw,
	sleep,
	startReceiver,
	waitFor,
	type Received,
	type Receiver,
} from '../support/sandbox';

/**
 * The service's own clock (SERVICE.md, 2026-11-28): an event the service makes itself (a scheduled send going out,
 * a delivered or read receipt, a missed call, a batch or a gathered burst closing, a ping) is written with its id
 * before it is announced. Each case kills the sandbox process (kill -9) the moment its receiver gets the first POST
 * of that event, starts it again on the same data file, and counts: the event comes again under the same id (its
 * delivery resumed), never under a new one, and a scheduled send makes one message.
 */

const MINUTE = 60_000;
const PERSON = '+14155550123';

const OPTIONS: ProcessOptions = {
	rateLimit: false,
	simulation: { deliveredAfterMs: 200, readAfterMs: 200, callRingMs: 300 },
	webhooks: { retryBaseMs: 100, maxRetryDelayMs: 500 },
	scheduled: { tickMs: 50 },
};

type Keys = { workspace: string; shortLink: string; automation: string };

const directory = mkdtempSync(join(tmpdir(), 'sandbox-own-clock-'));
let bundle: ReturnType<typeof bundleSandboxProcess>;
const started: SandboxProcess[] = [];
const receivers: Receiver[] = [];
beforeAll(() => {
	bundle = bundleSandboxProcess();
});
afterEach(async () => {
	await Promise.all(started.splice(0).map((sandbox) => sandbox.stop()));
	await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});
afterAll(() => {
	bundle?.remove();
	rmSync(directory, { recursive: true, force: true });
});

async function start(dataFile: string, options: ProcessOptions): Promise<SandboxProcess> {
	const sandbox = await SandboxProcess.start(bundle.script, { ...OPTIONS, ...options, dataFile });
	started.push(sandbox);
	return sandbox;
}

interface Crash {
	receiver: Receiver;
	/** The process started again after the kill. */
	again: SandboxProcess;
	keys: Keys;
	/** What `cause` answered. */
	made: { instanceId?: string };
	/** Every delivery of the event of this type, in order. */
	deliveries(): Received[];
}

/**
 * Starts a sandbox, lets `cause` register a webhook (at `receiver.url`) and bring the event about, kills the
 * sandbox (SIGKILL) as the first POST of an event of `type` arrives, starts it again on its data file (its
 * clock `restartShiftMs` ahead) and waits until that event has come again, then a little longer.
 */
async function crashAtFirst(
	type: string,
	cause: (
		sandbox: SandboxProcess,
		keys: Keys,
		receiver: Receiver,
	) => Promise<{ instanceId?: string }>,
	options: ProcessOptions & {
		restartShiftMs?: number;
		/** How the receiver answers, before the kill and after it (200 by default). */
		answer?: (delivery: Received, killed: boolean) => number;
	} = {},
): Promise<Crash> {
	const { restartShiftMs = 0, answer = () => 200, ...processOptions } = options;
	const dataFile = join(directory, `${type}.json`);
	const receiver = await startReceiver();
	receivers.push(receiver);
	const first = await start(dataFile, processOptions);
	const keys = first.keys as Keys;
	let killed = false;
	receiver.respond = (delivery) => {
		if (!killed && delivery.event.type === type) {
			killed = true;
			first.kill();
		}
		return answer(delivery, killed);
	};
	const made = await cause(first, keys, receiver);
	await waitFor(() => killed, 20_000, `the first ${type}`);
	await first.exited;
	const again = await start(dataFile, { ...processOptions, shiftMs: restartShiftMs });
	const deliveries = () => receiver.of(type);
	await waitFor(() => deliveries().length >= 2, 20_000, `${type} again after the restart`);
	// Anything else it would still send (a second copy under a new id) comes within this.
	await sleep(1500);
	return { receiver, again, keys, made, deliveries };
}

async function webhook(
	sandbox: SandboxProcess,
	keys: Keys,
	receiver: Receiver,
	body: Record<string, unknown>,
	kind: 'workspace' | 'automation' = 'workspace',
) {
	const clients = clientsFor(sandbox.baseUrl, keys);
	const created = await clients[kind].webhooks.create({
		body: { url: `${receiver.url}/hook`, ...body } as never,
	});
	receiver.secrets.push(created.secret);
}

const instance = (sandbox: SandboxProcess, keys: Keys) =>
	connectedInstance({ baseUrl: sandbox.baseUrl, keys } as never, 'Crash', '+14155550100');

const idsOf = (deliveries: Received[]) => [...new Set(deliveries.map(({ event }) => event.id))];

/** Every delivery valid, and all of one event (a failure shows each delivery's id, attempt and `late`). */
function expectOneEvent(deliveries: Received[]): void {
	expect(deliveries.every((delivery) => delivery.signature.valid)).toBe(true);
	const seen = deliveries.map(({ event, attempt }) => ({
		id: event.id,
		attempt,
		late: event.data.late,
	}));
	expect(seen).toEqual(seen.map((delivery) => ({ ...delivery, id: seen[0].id })));
}

it('a scheduled send killed at its message.sent goes once: one message, one message.sent id', async () => {
	const crash = await crashAtFirst(
		'message.sent',
		async (sandbox, keys, receiver) => {
			await webhook(sandbox, keys, receiver, {
				events: ['message.sent', 'message.scheduled_sent'],
			});
			const { id: instanceId } = await instance(sandbox, keys);
			const sendAt = new Date(Date.now() + MINUTE + 5000).toISOString();
			const scheduled = await clientsFor(sandbox.baseUrl, keys).workspace.messages.sendText({
				instanceId,
				body: { to: PERSON, text: 'Your appointment is tomorrow', sendAt },
			});
			expect(scheduled).toMatchObject({ status: 'scheduled' });
			await sandbox.shift(2 * MINUTE);
			return { instanceId };
		},
		{ restartShiftMs: 2 * MINUTE },
	);
	expectOneEvent(crash.deliveries());
	expect(crash.deliveries().map(({ event }) => event.data.late)).not.toContain(true);
	expect(idsOf(crash.receiver.of('message.scheduled_sent')).length).toBeLessThanOrEqual(1);
	const listed = await raw(
		crash.again.baseUrl,
		'GET',
		`/api/v1/instances/${crash.made.instanceId}/messages`,
		{ key: crash.keys.workspace },
	);
	const messages = (listed.body as { data: Array<{ direction: string; late?: boolean }> }).data;
	expect(messages.filter((message) => message.direction === 'outbound')).toHaveLength(1);
	expect(messages[0].late).toBeUndefined();
}, 90_000);

it.each([['message.delivered'], ['message.read']])(
	'a %s killed at its first POST comes again under the same id',
	async (type) => {
		const crash = await crashAtFirst(type, async (sandbox, keys, receiver) => {
			await webhook(sandbox, keys, receiver, { events: [type] });
			const { id: instanceId } = await instance(sandbox, keys);
			await clientsFor(sandbox.baseUrl, keys).workspace.messages.sendText({
				instanceId,
				body: { to: PERSON, text: 'Hi' },
			});
			return { instanceId };
		});
		expectOneEvent(crash.deliveries());
	},
	90_000,
);

it('a call.missed killed at its first POST comes again under the same id', async () => {
	const crash = await crashAtFirst('call.missed', async (sandbox, keys, receiver) => {
		await webhook(sandbox, keys, receiver, { events: ['call.missed'] });
		const { id: instanceId } = await instance(sandbox, keys);
		const call = await raw(sandbox.baseUrl, 'POST', `/sandbox/instances/${instanceId}/calls`, {
			key: keys.workspace,
			body: { from: PERSON, media: 'voice' },
		});
		expect(call.status).toBe(201);
		return { instanceId };
	});
	expectOneEvent(crash.deliveries());
}, 90_000);

it('a gathered burst killed at its first POST comes again under the same id', async () => {
	const crash = await crashAtFirst('message.received', async (sandbox, keys, receiver) => {
		await webhook(sandbox, keys, receiver, {
			events: ['message.received'],
			gather: { quietSeconds: 1, maxWaitSeconds: 60 },
		});
		const { id: instanceId } = await instance(sandbox, keys);
		for (const text of ['Hello', 'are you open today?']) {
			const sent = await raw(sandbox.baseUrl, 'POST', `/sandbox/instances/${instanceId}/inbound`, {
				key: keys.workspace,
				body: { from: PERSON, text },
			});
			expect(sent.status).toBe(201);
		}
		return { instanceId };
	});
	expectOneEvent(crash.deliveries());
	expect(crash.deliveries()[0].event.data).toMatchObject({ gathered: true, count: 2 });
}, 90_000);

it('a give-back after the quiet period killed at its first POST comes again under the same id, once', async () => {
	const crash = await crashAtFirst('chat.handed_back', async (sandbox, keys, receiver) => {
		await webhook(sandbox, keys, receiver, { events: ['chat.handed_back'] });
		const { id: instanceId } = await instance(sandbox, keys);
		const chat = `/sandbox/instances/${instanceId}/chats/${PERSON}`;
		await raw(sandbox.baseUrl, 'POST', `/sandbox/instances/${instanceId}/inbound`, {
			key: keys.workspace,
			body: { from: PERSON, text: 'Hello' },
		});
		for (const step of ['answer-as-business', 'give-back-due-now']) {
			const done = await raw(sandbox.baseUrl, 'POST', `${chat}/${step}`, {
				key: keys.workspace,
				body: step === 'answer-as-business' ? { text: 'Sam here' } : undefined,
			});
			expect(done.status).toBeLessThan(300);
		}
		return { instanceId };
	});
	expectOneEvent(crash.deliveries());
	expect(crash.deliveries()[0].event.data).toMatchObject({ reason: 'quiet_period' });
	const chat = await clientsFor(crash.again.baseUrl, crash.keys).workspace.chats.get({
		instanceId: crash.made.instanceId as string,
		chatId: PERSON,
	});
	expect(chat.handOver).toMatchObject({ handedOver: false });
}, 90_000);

it('a batch killed at its first POST comes again under the same id', async () => {
	const crash = await crashAtFirst('automation.batch', async (sandbox, keys, receiver) => {
		await webhook(
			sandbox,
			keys,
			receiver,
			{ events: ['automation.*'], batch: { maxEvents: 100, maxWaitSeconds: 1 } },
			'automation',
		);
		const { automation } = clientsFor(sandbox.baseUrl, keys);
		for (const n of [1, 2]) {
			await automation.events.publish({ body: { name: `order.n${n}`, payload: { n } } });
		}
		return {};
	});
	expectOneEvent(crash.deliveries());
	expect(crash.deliveries()[0].event.data).toMatchObject({ count: 2 });
}, 90_000);

it('a ping killed at its POST comes again under the same id', async () => {
	const crash = await crashAtFirst(
		'ping',
		async (sandbox, keys, receiver) => {
			await webhook(sandbox, keys, receiver, { events: ['automation.*'] }, 'automation');
			const { automation } = clientsFor(sandbox.baseUrl, keys);
			await automation.events.publish({ body: { name: 'order.n1', payload: {} } });
			return {};
		},
		{
			webhooks: { ...OPTIONS.webhooks, maxAttempts: 1, pingMinMs: 300, upkeepMs: 50 },
			// The receiver answers 503 to the event until the kill: its webhook is disabled at once, and pinged.
			answer: (delivery, killed) => (delivery.event.type === 'ping' || killed ? 200 : 503),
		},
	);
	expectOneEvent(crash.deliveries());
}, 90_000);
