/**
 * The trigger nodes under faults, against the sandbox over real HTTP: the sandbox delivers to n8n's webhook
 * endpoint (dev/harness/triggers.ts: each request runs the node's `webhook()` in n8n-core's
 * `WebhookContext`), reached through a gateway that can be taken down (./support.ts `startGateway`).
 *
 * - Outages: 80 automation events emitted before, during and after the receiver is unavailable — not
 *   listening (connection refused), answering 503, or hanging (the trigger runs the event, but the answer
 *   comes after the sandbox's timeout, so the sandbox delivers the event again). Once it is back, every event
 *   has reached the trigger and the workflow ran each one: exactly once, but for the events whose answers were
 *   held past the timeout, whose claims lapsed with their attempts (a lease: the service cannot tell a late
 *   answer from an n8n that died after claiming) and which ran again. Every further delivery of an event is
 *   acknowledged as a duplicate (the trigger's claim of the event id, nodes/shared/trigger/claim.ts).
 * - Churn: 50 activate/deactivate cycles of each of the three triggers, with n8n restarts, test listens and
 *   webhooks deleted at the service among them, leave no webhook behind (listed through the API); each trigger
 *   keeps one webhook (its owner's), taken back by each activation.
 */
import type { Sandbox } from '../../sandbox/server';
import type { WebhookRecord } from '../../sandbox/store/store';
import { clientsFor, sleep, startTestSandbox, waitFor } from '../support/sandbox';
import {
	N8nEndpoint,
	TRIGGER_TYPES,
	TriggerUnderTest,
	type Delivery,
	type TriggerOptions,
} from '../../dev/harness/triggers';
import { emittedIdsOf, publishEvents, startGateway, type Gateway } from '../support/faults';

type Keys = NonNullable<Sandbox['keys']>;

/** Events emitted before, during and after each outage, and how long it lasts. */
const EVENTS = { before: 20, during: 40, after: 20 };
const TOTAL = EVENTS.before + EVENTS.during + EVENTS.after;
const OUTAGE_MS = 1200;
/** The sandbox's timeout for an answer, and how long the hanging gateway holds the trigger's answers. */
const TIMEOUT_MS = 4000;
const HOLD_MS = 6000;
const CYCLES = 50;
/** Deadlines for what a loaded machine slows down, far above what an idle one needs (a few seconds). */
const DEADLINE_MS = 60_000;
// Above the sum of the deadlines of one test, so that a slow stage names itself rather than the test timing out.
const TEST_TIMEOUT_MS = 300_000;

let sandbox: Sandbox;
let keys: Keys;
let clients: ReturnType<typeof clientsFor>;
let endpoint: N8nEndpoint;
let gateway: Gateway;

beforeAll(async () => {
	// Retries every 25–400 ms, 100 attempts: well over 40 s of retrying before a delivery gives up, longer than
	// any outage below however long a loaded machine takes to publish its events (the real service: 10 s base,
	// 8 attempts, 10 s timeout; with 12 attempts a loaded run gave up on events, and the webhook was disabled).
	// A 4 s timeout, below the held answers' 6 s (HOLD_MS): an answer held past it, after the trigger claimed, is
	// still waited for (30 s from the claim), so the event is not delivered again and runs once.
	sandbox = await startTestSandbox({
		rateLimit: false,
		webhooks: {
			retryBaseMs: 50,
			maxRetryDelayMs: 400,
			maxAttempts: 100,
			timeoutMs: TIMEOUT_MS,
			claimedTimeoutMs: 30_000,
		},
	});
	keys = sandbox.keys as Keys;
	clients = clientsFor(sandbox.baseUrl, keys);
	endpoint = await new N8nEndpoint().start();
	// n8n behind a reverse proxy: the webhook URLs it gives its triggers (WEBHOOK_URL) are the proxy's.
	gateway = await startGateway(endpoint.url, { holdMs: HOLD_MS });
	endpoint.url = gateway.url;
});
afterAll(async () => {
	await gateway?.close();
	await endpoint?.close();
	await sandbox?.close();
});

function trigger(options: Omit<TriggerOptions, 'credentials'>): TriggerUnderTest {
	return new TriggerUnderTest(endpoint, {
		...options,
		credentials: {
			multichannelApi: { baseUrl: sandbox.baseUrl, apiKey: keys.workspace },
			multichannelShortLinkApi: { baseUrl: sandbox.baseUrl, apiKey: keys.shortLink },
			multichannelAutomationApi: { baseUrl: sandbox.baseUrl, apiKey: keys.automation },
		},
	});
}

const webhooksAt = (url: string): WebhookRecord[] =>
	sandbox.store.all('webhooks').filter((webhook) => webhook.url === url);

/** How many times each event id occurs among these deliveries' ids. */
function countById(ids: string[]): Map<string, number> {
	const counts = new Map<string, number>();
	for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
	return counts;
}

const eventIdOf = (delivery: Delivery) => (JSON.parse(delivery.rawBody) as { id: string }).id;

/**
 * Every event emitted before, during and after an outage of the gateway, through one Automation Trigger.
 * `heldAnswers`: the outage holds the trigger's answers past the sandbox's timeout for an answer, after the
 * trigger claimed: the events emitted during it are answered late, not delivered again, and still run once.
 */
async function throughOutage(label: string, outage: Gateway['mode'], heldAnswers = false) {
	const node = trigger({ type: TRIGGER_TYPES.automation, parameters: {} });
	await node.activate();
	try {
		const [webhook] = webhooksAt(node.webhookUrl());
		const published = await publishEvents(clients.automation, `${label}.before`, EVENTS.before);
		// Run and answered: an answer still on its way when the outage starts is lost with its connection, the lease
		// of its claim lapses, and the event rightly runs again (an answer lost after the run, as docs/design.md says).
		const beforeIds = new Set(emittedIdsOf(sandbox, published));
		await waitFor(
			() =>
				endpoint.executions(node).length >= EVENTS.before &&
				sandbox.store.all(
					'deliveries',
					(record) =>
						record.webhookId === webhook.id &&
						beforeIds.has(record.eventId) &&
						record.status === 'succeeded',
				).length === EVENTS.before,
			DEADLINE_MS,
			'the runs before the outage, answered',
		);

		const started = Date.now();
		await gateway.setMode(outage);
		const during = await publishEvents(clients.automation, `${label}.during`, EVENTS.during);
		published.push(...during);
		await sleep(Math.max(0, OUTAGE_MS - (Date.now() - started)));
		// The outage lasts until each of its events was tried once (a loaded machine may take longer than
		// OUTAGE_MS to get there): only then does every one of them need a retry, as asserted below.
		const duringIds = new Set(emittedIdsOf(sandbox, during));
		await waitFor(
			() =>
				sandbox.store.all(
					'deliveries',
					(record) =>
						record.webhookId === webhook.id && duringIds.has(record.eventId) && record.attempt >= 1,
				).length === EVENTS.during,
			DEADLINE_MS,
			'a first attempt at each event of the outage',
		);
		await gateway.setMode('pass');
		published.push(...(await publishEvents(clients.automation, `${label}.after`, EVENTS.after)));

		const eventIds = emittedIdsOf(sandbox, published);
		expect(eventIds).toHaveLength(TOTAL);
		// Back: the sandbox's log shows each event delivered (a 2xx from the trigger), nothing pending.
		const records = await waitFor(
			() => {
				const all = sandbox.store.all('deliveries', (record) => record.webhookId === webhook.id);
				return all.length === TOTAL && all.every((record) => record.status === 'succeeded')
					? all
					: undefined;
			},
			DEADLINE_MS,
			`all ${TOTAL} deliveries to succeed`,
		);
		expect(new Set(records.map((record) => record.eventId))).toEqual(new Set(eventIds));
		const duringRecords = records.filter((record) => duringIds.has(record.eventId));
		if (heldAnswers) {
			// The outage was real: each event emitted during it was answered past the timeout, by its first attempt.
			expect(
				duringRecords.filter(
					(record) => record.attempt === 1 && record.attempts[0].durationMs >= TIMEOUT_MS,
				).length,
			).toBe(EVENTS.during);
		} else {
			// The outage was real: the events emitted during it needed more than one attempt.
			expect(duringRecords.filter((record) => record.attempt > 1).length).toBe(EVENTS.during);
		}
		expect(sandbox.store.get('webhooks', webhook.id)).toMatchObject({ status: 'active' });

		// Every event reached the trigger, and the workflow ran each one exactly once.
		const delivered = countById(endpoint.of(node).map(eventIdOf));
		const runs = countById(
			endpoint.executions(node).map((delivery) => String(delivery.items?.[0]?.json.id)),
		);
		expect({
			notDelivered: eventIds.filter((id) => !delivered.has(id)),
			notRun: eventIds.filter((id) => !runs.has(id)),
			runMoreThanOnce: [...runs].filter(([, count]) => count > 1),
			runButNotEmitted: [...runs.keys()].filter((id) => !eventIds.includes(id)),
		}).toEqual({ notDelivered: [], notRun: [], runMoreThanOnce: [], runButNotEmitted: [] });
		// Every other delivery of an event ran nothing: acknowledged (200) as a duplicate, or refused with 503 for
		// the service to retry: claim_failed when the claim itself got no answer in time, claim_held when it came
		// while an earlier attempt, slower than the service's timeout, still held the claim (both: a loaded machine).
		// Only status and reason are compared: a whole delivery per line made a failure print 50 MB.
		const others = endpoint.of(node).filter((delivery) => delivery.items === undefined);
		const answers = others.map((delivery) => {
			const body = JSON.parse(delivery.responseBody) as {
				reason?: string;
				error?: { code?: string };
			};
			return `${delivery.status} ${body.reason ?? body.error?.code ?? delivery.responseBody.slice(0, 80)}`;
		});
		expect(
			answers.filter(
				(answer) => !['200 duplicate', '503 claim_failed', '503 claim_held'].includes(answer),
			),
		).toEqual([]);
	} finally {
		await gateway.setMode('pass');
		await node.deactivate();
	}
}

describe(`a trigger through a receiver outage (${TOTAL} events each)`, () => {
	test(
		'not listening (connection refused): every event runs once when it is back',
		async () => {
			await throughOutage('refused', 'refuse');
		},
		TEST_TIMEOUT_MS,
	);

	test(
		'answering 503: every event runs once when it is back',
		async () => {
			await throughOutage('unavailable', 'unavailable');
		},
		TEST_TIMEOUT_MS,
	);

	test(
		'hanging past the timeout after the claim: the answers are waited for, every event runs once',
		async () => {
			await throughOutage('hanging', 'hang', true);
		},
		TEST_TIMEOUT_MS,
	);
});

describe('activate/deactivate churn', () => {
	// Its time is the machine's: 5-8 s alone, past jest's 30 s on a machine loaded by three helpers (/tmp/ci17).
	test(`${CYCLES} cycles of each trigger leave no webhook behind at the service`, async () => {
		const link = await clients.shortLink.links.create({ body: { url: 'https://example.com/c' } });
		const kinds = [
			{
				node: trigger({
					type: TRIGGER_TYPES.messaging,
					parameters: { events: ['message.received', 'message.failed'] },
				}),
				list: () => clients.workspace.webhooks.list.all(),
				remove: (webhookId: string) => clients.workspace.webhooks.delete({ webhookId }),
			},
			{
				node: trigger({
					type: TRIGGER_TYPES.shortLink,
					parameters: { events: ['link.clicked'], linkIds: [link.id] },
				}),
				list: () => clients.shortLink.webhooks.list.all(),
				remove: (webhookId: string) => clients.shortLink.webhooks.delete({ webhookId }),
			},
			{
				node: trigger({ type: TRIGGER_TYPES.automation, parameters: {} }),
				list: () => clients.automation.webhooks.list.all(),
				remove: (webhookId: string) => clients.automation.webhooks.delete({ webhookId }),
			},
		];
		const before = await Promise.all(kinds.map(async ({ list }) => await list()));

		// The three triggers churn at the same time, each through its own cycles.
		await Promise.all(
			kinds.map(async ({ node, remove }) => {
				const registered = new Set<string>();
				for (let cycle = 0; cycle < CYCLES; cycle++) {
					await node.activate();
					// n8n starting again while the workflow is active: the webhook is found, none is added.
					if (cycle % 5 === 4) await node.activate('init');
					// The editor listening for a test event meanwhile: a webhook of its own, removed after.
					if (cycle % 10 === 9) {
						await node.listenForTest();
						await node.stopListening();
					}
					const current = webhooksAt(node.webhookUrl());
					expect(current).toHaveLength(1);
					registered.add(current[0].id);
					// Deleted at the service by someone else: deactivating still succeeds.
					if (cycle % 7 === 6) await remove(current[0].id);
					await node.deactivate();
				}
				// One trigger, one owner, one webhook: each activation took back the one deleted before it.
				expect(registered.size).toBe(1);
				expect(node.nodeStaticData()).toEqual({});
			}),
		);

		const after = await Promise.all(kinds.map(async ({ list }) => await list()));
		const urls = new Set(kinds.flatMap(({ node }) => [node.webhookUrl(), node.webhookUrl(true)]));
		for (const [index, webhooks] of after.entries()) {
			expect(webhooks.filter((webhook) => urls.has(webhook.url ?? ''))).toEqual([]);
			expect(webhooks.map((webhook) => webhook.id)).toEqual(
				before[index].map((webhook) => webhook.id),
			);
		}
		// Deleted webhooks are held for their owner for a grace period, invisible to the API, then dropped.
		expect(
			sandbox.store
				.all('webhooks')
				.filter((webhook) => urls.has(webhook.url) && webhook.status !== 'deleted'),
		).toEqual([]);
	}, 300_000);
});
