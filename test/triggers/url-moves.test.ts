/**
 * n8n's address changing under a trigger, against the sandbox on loopback, in n8n-core's contexts. Each
 * `N8nEndpoint` is an address; a trigger moved to another one is still reached at the old one, a process
 * (queue mode) shares the database's static data, a copy (a user folder copied: the same instance id, so the
 * same owners) starts with what the original held. (a) A republish while a delivery comes through the old
 * address keeps the new secret; `checkExists` sees a secret the service no longer signs with. (b) A process with
 * an older address never moves the webhook back, main or webhook process first, and a rollback registers again.
 * (c) A copy is refused, saying what to do, while the original keeps every event; one n8n reached at both
 * addresses is replaced in place. (d) n8n back at a new address, its old one dead, replaces its webhook in place
 * (lifecycle-wire.test.ts only mocks that answer).
 */
import { secretFingerprint } from '../../src/client';
import { waitFor } from '../support/sandbox';
import { useTriggerSuite } from '../support/triggers';
import { logLines, N8nEndpoint, TRIGGER_TYPES, TriggerUnderTest } from '../../dev/harness/triggers';

const suite = useTriggerSuite();
const endpoints: N8nEndpoint[] = [];
afterAll(async () => {
	for (const endpoint of endpoints) await endpoint.close();
});

async function address(): Promise<N8nEndpoint> {
	const endpoint = await new N8nEndpoint().start();
	endpoints.push(endpoint);
	return endpoint;
}

/** An automation trigger on every event, activated at `at`. */
async function activatedAt(at: N8nEndpoint): Promise<TriggerUnderTest> {
	const node = new TriggerUnderTest(at, {
		type: TRIGGER_TYPES.automation,
		parameters: {},
		credentials: suite.credentials(),
	});
	await node.activate();
	return node;
}

/**
 * An n8n activated at address A, and another process of it given address B (sharing its database), which A
 * reaches too: the old address still routes, to the process with the new one.
 */
async function movingProcess(): Promise<{
	A: N8nEndpoint;
	B: N8nEndpoint;
	old: TriggerUnderTest;
	moved: TriggerUnderTest;
}> {
	const A = await address();
	const old = await activatedAt(A);
	const B = await address();
	const moved = old.otherAt(B, 'process');
	A.register(moved);
	return { A, B, old, moved };
}

/** The ids of the published events that started an execution at an address, or at any. */
const ranAt = (endpoint: N8nEndpoint): string[] =>
	endpoint.deliveries.flatMap((delivery) =>
		(delivery.items ?? []).map((item) => String((item.json.data as { id: string }).id)),
	);
const ran = (): string[] => [suite.endpoint, ...endpoints].flatMap(ranAt);

/** Publishes an event and waits for its execution. */
async function runs(what: string): Promise<void> {
	const published = await suite.clients.automation.events.publish({
		body: { name: 'order.created', payload: { what } },
	});
	await waitFor(() => ran().includes(published.id), 5000, `${what} to run`);
}

/** The trigger's webhook at the sandbox, by the id its production registration keeps. */
function webhookOf(node: TriggerUnderTest) {
	const [registration] = Object.values(node.nodeStaticData().webhooks as object) as Array<{
		webhookId: string;
		secret: string;
	}>;
	const webhook = suite.sandbox.store
		.all('webhooks')
		.find(({ id }) => id === registration.webhookId);
	if (!webhook) throw new Error('no webhook at the sandbox');
	return { webhook, kept: registration };
}

describe('(a) the secret', () => {
	it('a republish while a delivery comes through the old address: the new secret survives', async () => {
		const A = await address();
		const node = await activatedAt(A);
		node.moveTo(await address());
		// n8n republishes (create at the new URL) between the delivery's read of static data and its save.
		node.beforeDeliverySaves = async () => {
			node.beforeDeliverySaves = undefined;
			await node.hook('create');
		};

		await runs('the event delivered to the old address');
		await runs('the next event, signed with the new secret');

		const { webhook, kept } = webhookOf(node);
		expect(kept.secret).toBe(webhook.secret);
		expect(webhook.url).toBe(node.webhookUrl());
		await node.deactivate();
	});

	it('checkExists answers false for a secret the service no longer signs with; activation registers again', async () => {
		const node = await activatedAt(await address());
		const { webhook } = webhookOf(node);
		await suite.clients.automation.webhooks.rotateSecret({ webhookId: webhook.id, body: {} });

		expect(await node.hook('checkExists')).toBe(false);
		await node.hook('create');

		const after = webhookOf(node);
		expect(after.webhook.id).toBe(webhook.id);
		expect(secretFingerprint(after.kept.secret)).toBe(secretFingerprint(after.webhook.secret));
		expect(
			logLines.some((line) => /signs with a secret this trigger does not keep/.test(line)),
		).toBe(true);
		await runs('an event after the secret was set again');
		await node.deactivate();
	});
});

describe('(b) a rollout in any order of processes', () => {
	it('main first, the old address dead: the webhook process still at it never moves the webhook back', async () => {
		const A = await address();
		const webhookProcess = await activatedAt(A);
		const B = await address();
		const main = webhookProcess.otherAt(B, 'process');
		await A.close();

		await main.activate();
		// The new address reaches the webhook process, which n8n still gives the old one.
		B.register(webhookProcess);
		await runs('the first event after the move');
		await runs('the second');
		await runs('the third');

		const { webhook } = webhookOf(main);
		expect(webhook.url).toBe(main.webhookUrl());
		await main.deactivate();
	});

	it('webhook process first, the old address still reaching it: moved once; main, still old, moves nothing', async () => {
		const { B, old: main, moved: webhookProcess } = await movingProcess();

		await runs('an event through the old address');
		expect(webhookOf(main).webhook.url).toBe(webhookProcess.webhookUrl());

		B.register(main);
		await runs('an event at the new address, taken by main with its old URL');
		expect(webhookOf(main).webhook.url).toBe(webhookProcess.webhookUrl());

		// main restarted at the new address: its webhook is where it should be, nothing registered again.
		const restarted = main.otherAt(B, 'process');
		expect(await restarted.hook('checkExists')).toBe(true);
		await runs('an event after both moved');
		await restarted.deactivate();
	});

	it('a rollback: every process back at the old address registers there again in place', async () => {
		const { A, B, moved } = await movingProcess();
		await moved.activate();
		const { webhook } = webhookOf(moved);

		// Rolled back: both addresses reach processes given the old one.
		const back = moved.otherAt(A, 'process');
		B.register(back);
		await back.activate();

		expect(webhookOf(back).webhook).toMatchObject({ id: webhook.id, url: back.webhookUrl() });
		await runs('an event after the rollback');
		await back.deactivate();
	});
});

describe('(c) a copy of an n8n', () => {
	it('is refused, saying what to do, and the original keeps every event; a move of one n8n is replaced in place', async () => {
		const original = await activatedAt(await address());
		const { webhook } = webhookOf(original);
		const secret = webhook.secret;
		const copyAddress = await address();
		const copy = original.otherAt(copyAddress, 'copy');

		await expect(copy.activate()).rejects.toThrow(/two receivers claim one owner/);
		const logged = logLines.filter((line) =>
			/could not register the webhook of n8n workflow/.test(line),
		);
		expect(logged.at(-1)).toMatch(/Deactivate the workflow in one of the two/);
		// n8n deactivates a workflow whose activation failed: the original's webhook stays.
		await copy.deactivate();
		expect(webhook).toMatchObject({ url: original.webhookUrl(), secret, status: 'active' });

		await runs('an event after the copy started');
		// The original restarted: still its own webhook, nothing registered.
		expect(await original.hook('checkExists')).toBe(true);
		await runs('an event after the original restarted');

		// The original moved, its old address still reaching it: replaced in place at the new one.
		original.moveTo(await address());
		await original.activate();
		expect(webhookOf(original).webhook).toMatchObject({
			id: webhook.id,
			url: original.webhookUrl(),
		});
		await runs('an event at the new address');
		expect(copyAddress.deliveries).toEqual([]);
		await original.deactivate();
	});
});

describe('(d) n8n back at a new address, its old one dead', () => {
	it('one webhook: the same id, the new URL and secret; the events held meanwhile delivered there', async () => {
		const A = await address();
		const node = await activatedAt(A);
		const { webhook } = webhookOf(node);
		const { id, owner, secret: oldSecret } = webhook;
		await runs('an event before the move');

		// n8n stops, its webhook ends up disabled (as past the retry horizon), and events are held meanwhile.
		await A.close();
		await suite.clients.automation.webhooks.update({ webhookId: id, body: { enabled: false } });
		const held = await Promise.all(
			['held 1', 'held 2'].map((what) =>
				suite.clients.automation.events.publish({
					body: { name: 'order.created', payload: { what } },
				}),
			),
		);

		const B = await address();
		node.moveTo(B);
		await node.activate();

		const owned = suite.sandbox.store.all('webhooks').filter((other) => other.owner === owner);
		expect(owned).toEqual([
			expect.objectContaining({ id, url: node.webhookUrl(), status: 'active' }),
		]);
		const after = webhookOf(node);
		expect(after.webhook.secret).not.toBe(oldSecret);
		expect(after.kept).toMatchObject({ webhookId: id, secret: after.webhook.secret });
		// At the new URL, signed with the new secret: the trigger runs only what it verifies.
		await waitFor(
			() => held.every(({ id: eventId }) => ranAt(B).includes(eventId)),
			10_000,
			'the held events to run at the new address',
		);
		await runs('an event after the move');
		expect(ranAt(B)).toHaveLength(3);
		await node.deactivate();
	});
});
