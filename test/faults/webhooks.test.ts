/**
 * The sandbox's webhook deliveries when the receiver is down for a while: every event emitted before, during
 * and after the outage reaches the receiver once it is back, signed, with its event id; each delivery
 * succeeds in the sandbox's log and the webhook stays active. Three kinds of outage: the receiver's process
 * is gone (connection refused), it is up but failing (503), and it hangs (no answer within the timeout —
 * it did receive those, so it sees some events twice: delivery is at least once, and the event id is what a
 * receiver deduplicates on). A receiver that goes away mid-request can also see the events it was receiving
 * at that moment twice.
 *
 * What the trigger nodes then do with redeliveries (each event run exactly once) is tested with the
 * triggers (./triggers.test.ts, test/triggers).
 */
import {
	clientsFor,
	sleep,
	startReceiver,
	suiteSandbox,
	waitFor,
	type Receiver,
} from '../support/sandbox';
import { emittedIdsOf, publishEvents } from '../support/faults';

const BEFORE = 10;
const DURING = 60;
const AFTER = 10;
const OUTAGE_MS = 1200;

let clients: ReturnType<typeof clientsFor>;
/** Every receiver started, closed after each test even when it failed (an open server keeps jest running). */
const receivers: Receiver[] = [];
const receiverOn = async (port = 0) => {
	const receiver = await startReceiver(port);
	receivers.push(receiver);
	return receiver;
};

// Retries every 25–400 ms, 100 attempts: about 40 s of retrying before a delivery gives up, as the real service
// outlasts any outage it is meant to (10 s base, 8 attempts: about 40 minutes). An outage here lasts at least
// OUTAGE_MS but as long as publishing its events takes, which a loaded machine stretches well past the 2 s that
// 12 attempts gave; a delivery that gave up would be a lost event the test exists to catch, not a slow machine.
// Attempts time out after 1 s (a hanging receiver answers after 2 s), above what a loaded loop takes to answer.
const suite = suiteSandbox({
	rateLimit: false,
	webhooks: {
		retryBaseMs: 50,
		maxRetryDelayMs: 400,
		maxAttempts: 100,
		timeoutMs: 1000,
		disableAfterFailedDeliveries: 3,
	},
});
/** Deadlines for what the machine's load may slow down, far above what an idle machine needs (under 2 s). */
const DEADLINE_MS = 30_000;
const TEST_TIMEOUT_MS = 120_000;
beforeAll(() => {
	clients = clientsFor(suite.sandbox.baseUrl, suite.keys);
});
/** Every webhook made, deleted after each test: one left pointing at a closed receiver retries in the
 * background for the next test and starves a loaded machine's loop (attempts timing out 13 s late). */
const webhookIds: string[] = [];
afterEach(async () => {
	await Promise.all(
		webhookIds
			.splice(0)
			.map(async (id) => await clients.automation.webhooks.delete({ webhookId: id })),
	);
	await Promise.all(receivers.splice(0).map(async (receiver) => await receiver.close()));
});

/** Rethrows a wait's failure with what the sandbox's log holds of the deliveries not yet succeeded. */
function explainWith(webhookId: string) {
	return (error: Error): never => {
		const left = suite.sandbox.store
			.all(
				'deliveries',
				(record) => record.webhookId === webhookId && record.status !== 'succeeded',
			)
			.map(
				(record) =>
					`${record.status} after ${record.attempt} (${record.attempts
						.slice(-3)
						.map(
							(attempt) => `${attempt.responseStatus ?? attempt.error} in ${attempt.durationMs} ms`,
						)
						.join('; ')})`,
			);
		const webhook = suite.sandbox.store.get('webhooks', webhookId);
		throw new Error(
			`${error.message}; webhook ${webhook?.status}, ${left.length} not succeeded: ${left.slice(0, 4).join(', ')}`,
		);
	};
}

interface Outage {
	/** Takes the receiver down; returns how to bring it back (a new receiver may be on the same port). */
	down(receiver: Receiver): Promise<() => Promise<Receiver>>;
}

async function throughOutage(path: string, outage: Outage) {
	let receiver = await receiverOn();
	const hook = await clients.automation.webhooks.create({
		body: { url: `${receiver.url}/${path}`, events: ['automation.*'] },
	});
	webhookIds.push(hook.id);
	receiver.secrets.push(hook.secret);

	const published = await publishEvents(clients.automation, `${path}.before`, BEFORE);
	await waitFor(
		() => receiver.received.length >= BEFORE,
		DEADLINE_MS,
		'the deliveries before the outage',
	);

	const started = Date.now();
	const back = await outage.down(receiver);
	// Emitted in one turn, so that each gets its first attempt in the receiver's first window (64 in flight).
	// Published one request at a time, a loaded machine took past the hanging receiver's timeouts, which halved
	// the window, and the retries of the first events (oldest first) kept the last from ever being tried.
	const { core, workspaceId } = suite.sandbox;
	const during = Array.from(
		{ length: DURING },
		(_, n) => core.emit(workspaceId, `automation.${path}.during.${n}`, { n }).id,
	);
	await sleep(Math.max(0, OUTAGE_MS - (Date.now() - started)));
	// The outage lasts until each of its events was tried once (a loaded machine may take longer than OUTAGE_MS
	// to get there): only then does every one of them need a retry, as asserted below.
	const duringIds = new Set(during);
	await waitFor(
		() =>
			suite.sandbox.store.all(
				'deliveries',
				(record) =>
					record.webhookId === hook.id && duringIds.has(record.eventId) && record.attempt >= 1,
			).length === DURING,
		DEADLINE_MS,
		'a first attempt at each event of the outage',
	);
	const downReceiver = receiver;
	receiver = await back();
	published.push(...(await publishEvents(clients.automation, `${path}.after`, AFTER)));

	const eventIds = [...emittedIdsOf(suite.sandbox, published), ...during];
	expect(eventIds).toHaveLength(BEFORE + DURING + AFTER);
	const receivedBy = (ids: Set<string>) => () =>
		[downReceiver, receiver]
			.flatMap((each) => each.received)
			.filter((delivery) => delivery.signature.valid && ids.has(delivery.event.id));
	const wanted = new Set(eventIds);
	await waitFor(
		() => new Set(receivedBy(wanted)().map((delivery) => delivery.event.id)).size === wanted.size,
		DEADLINE_MS,
		`all ${wanted.size} events at the receiver`,
	).catch(explainWith(hook.id));

	// The sandbox's own log: one delivery per event, succeeded, and nothing left pending.
	const deliveries = await waitFor(
		() => {
			const records = suite.sandbox.store.all(
				'deliveries',
				(record) => record.webhookId === hook.id,
			);
			return records.length === wanted.size &&
				records.every((record) => record.status === 'succeeded')
				? records
				: undefined;
		},
		DEADLINE_MS,
		'every delivery to succeed',
	).catch(explainWith(hook.id));
	expect(new Set(deliveries.map((record) => record.eventId))).toEqual(wanted);
	expect(suite.sandbox.store.get('webhooks', hook.id)).toMatchObject({ status: 'active' });
	// The events of the outage needed more than one attempt, and say so in the header they were sent with.
	const retried = deliveries.filter((record) => record.attempt > 1);
	expect(retried.length).toBeGreaterThanOrEqual(DURING);
	const deliveredAfterRetry = receiver.received.filter((delivery) => delivery.attempt > 1);
	expect(deliveredAfterRetry.length).toBeGreaterThan(0);
	expect(
		deliveredAfterRetry.every(
			(delivery) => delivery.headers['x-multichannel-event-id'] === delivery.event.id,
		),
	).toBe(true);

	const received = receivedBy(wanted)();
	return { received, deliveries };
}

describe('webhook deliveries through a receiver outage', () => {
	test(
		'receiver gone (connection refused): everything arrives once it is back, each event once',
		async () => {
			const { received } = await throughOutage('gone', {
				async down(receiver) {
					const port = Number(new URL(receiver.url).port);
					const secrets = [...receiver.secrets];
					await receiver.close();
					return async () => {
						const again = await receiverOn(port);
						again.secrets.push(...secrets);
						return again;
					};
				},
			});
			// Nothing reaches a closed port; only what was in flight when it closed can come twice.
			expect(new Set(received.map((delivery) => delivery.event.id)).size).toBe(
				BEFORE + DURING + AFTER,
			);
			expect(received.length).toBeLessThan(BEFORE + DURING + AFTER + 10);
		},
		TEST_TIMEOUT_MS,
	);

	test(
		'receiver failing (503): everything arrives once it answers 200 again',
		async () => {
			const { received } = await throughOutage('failing', {
				async down(receiver) {
					receiver.respond = () => 503;
					return async () => {
						receiver.respond = () => 200;
						return receiver;
					};
				},
			});
			const accepted = received.filter((delivery) => delivery.attempt > 0);
			expect(new Set(accepted.map((delivery) => delivery.event.id)).size).toBe(
				BEFORE + DURING + AFTER,
			);
		},
		TEST_TIMEOUT_MS,
	);

	test(
		'receiver hanging (no answer in time): every event arrives, some twice, under one event id',
		async () => {
			const { received } = await throughOutage('hanging', {
				async down(receiver) {
					receiver.respond = () => ({ status: 200, delayMs: 2000 });
					return async () => {
						receiver.respond = () => 200;
						return receiver;
					};
				},
			});
			const ids = received.map((delivery) => delivery.event.id);
			expect(ids.length).toBeGreaterThan(new Set(ids).size);
			expect(new Set(ids).size).toBe(BEFORE + DURING + AFTER);
		},
		TEST_TIMEOUT_MS,
	);
});
