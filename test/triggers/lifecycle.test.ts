/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- a made-up key, which the test looks for in the error */
/**
 * The trigger nodes' webhook lifecycle against the sandbox, run in n8n-core's `HookContext` the way n8n
 * activates and deactivates a workflow: one webhook per trigger with the node's URL and events, registered again
 * in place (the same id: the service keeps one webhook per owner) when it was deleted or changed at the service,
 * none left after deactivation, and never a second one. A webhook its owner deleted is held by the service for
 * a grace period (status `deleted`, invisible to the API), so that a registration right after takes it back.
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { WebhookRecord } from '../../sandbox/store/store';
import { useTriggerSuite } from '../support/triggers';
import { logLines, TRIGGER_TYPES, type TriggerUnderTest } from '../../dev/harness/triggers';

const suite = useTriggerSuite();
const { credentials, trigger } = suite;

/** The webhooks the sandbox has for a trigger (production or test URL), as its API shows them. */
const webhooksAt = (url: string): WebhookRecord[] =>
	suite.sandbox.store
		.all('webhooks')
		.filter((webhook) => webhook.url === url && webhook.status !== 'deleted');

interface Stored {
	webhooks?: Record<string, { webhookId: string; secret: string; events: string[] }>;
}
const stored = (node: TriggerUnderTest, test = false) => node.nodeStaticData(test) as Stored;

describe('activation', () => {
	it('registers exactly one webhook with the node URL, the chosen events and a fresh secret', async () => {
		const link = await suite.clients.shortLink.links.create({
			body: { url: 'https://example.com/a' },
		});
		const node = trigger({
			type: TRIGGER_TYPES.shortLink,
			parameters: { events: ['link.clicked', 'link.deleted'], linkIds: [link.id] },
		});
		await node.activate();

		const [webhook, ...others] = webhooksAt(node.webhookUrl());
		expect(others).toHaveLength(0);
		expect(webhook).toMatchObject({
			surface: 'shortLink',
			url: node.webhookUrl(),
			events: ['link.clicked', 'link.deleted'],
			filters: { linkIds: [link.id] },
			status: 'active',
		});
		expect(webhook.description).toContain('"Trigger"');
		const registration = stored(node).webhooks?.[node.webhookUrl()];
		expect(registration).toEqual({
			webhookId: webhook.id,
			secret: webhook.secret,
			events: ['link.clicked', 'link.deleted'],
			mode: 'production',
			// What a delivery needs to claim without the API key.
			serviceUrl: suite.sandbox.baseUrl,
			signedClaims: true,
		});
		expect(registration?.secret).toMatch(/^[0-9a-f]{64}$/);

		// Another activation of another workflow gets another secret.
		const second = trigger({ type: TRIGGER_TYPES.shortLink, parameters: {} });
		await second.activate();
		expect(stored(second).webhooks?.[second.webhookUrl()]?.secret).not.toBe(registration?.secret);
		expect(webhooksAt(second.webhookUrl())[0].events).toEqual(['link.clicked']);
		await second.deactivate();
		await node.deactivate();
	});

	it('registers messaging events with an instance filter, and automation events by name', async () => {
		const messaging = trigger({
			type: TRIGGER_TYPES.messaging,
			parameters: { events: ['message.received', 'message.failed'], instanceIds: ['inst_1'] },
		});
		await messaging.activate();
		expect(webhooksAt(messaging.webhookUrl())).toEqual([
			expect.objectContaining({
				surface: 'workspace',
				events: ['message.received', 'message.failed'],
				filters: { instanceIds: ['inst_1'] },
			}),
		]);

		const some = trigger({
			type: TRIGGER_TYPES.automation,
			parameters: {
				listenTo: 'chosen',
				eventNames: 'order.created, automation.order.paid,order.created',
			},
		});
		const all = trigger({ type: TRIGGER_TYPES.automation, parameters: {} });
		await some.activate();
		await all.activate();
		expect(webhooksAt(some.webhookUrl()).map((webhook) => webhook.events)).toEqual([
			['automation.order.created', 'automation.order.paid'],
		]);
		expect(webhooksAt(all.webhookUrl()).map((webhook) => webhook.events)).toEqual([
			['automation.*'],
		]);
		for (const node of [messaging, some, all]) await node.deactivate();
	});

	it('refuses invalid automation event names before calling the service', async () => {
		const node = trigger({
			type: TRIGGER_TYPES.automation,
			parameters: { listenTo: 'chosen', eventNames: 'Order Created, ok.name' },
		});
		const activation = node.activate();
		await expect(activation).rejects.toBeInstanceOf(NodeOperationError);
		await expect(activation).rejects.toThrow('Invalid event name: Order Created');
		expect(webhooksAt(node.webhookUrl())).toHaveLength(0);
	});

	it('reports a rejected key as an API error, without the key', async () => {
		const node = trigger({
			type: TRIGGER_TYPES.automation,
			parameters: {},
			credentials: {
				...credentials(),
				multichannelAutomationApi: {
					baseUrl: suite.sandbox.baseUrl,
					apiKey: 'mca_not-a-real-key-0000',
				},
			},
		});
		const error = (await node.activate().catch((caught: unknown) => caught)) as NodeApiError;
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toMatch(/automation API key was rejected/);
		expect(JSON.stringify({ ...error, message: error.message })).not.toContain('not-a-real-key');
		expect(webhooksAt(node.webhookUrl())).toHaveLength(0);
		expect(stored(node).webhooks).toBeUndefined();
		// A trace a user finds in n8n's log, naming the workflow and node, whatever n8n shows of the error.
		const traces = logLines.filter((line) => /could not register the webhook/.test(line));
		expect(traces.at(-1)).toMatch(
			/^error: .*n8n workflow "Trigger test workflow", node "Trigger".*automation API key was rejected/,
		);
		expect(logLines.join('\n')).not.toContain('not-a-real-key');
	});
});

describe('checkExists', () => {
	it('is true while the webhook exists, and false once deleted at the service: activation takes it back', async () => {
		const node = trigger({ type: TRIGGER_TYPES.automation, parameters: {} });
		await node.activate();
		const [first] = webhooksAt(node.webhookUrl());
		const firstSecret = first.secret;
		expect(await node.hook('checkExists')).toBe(true);

		// n8n starting up again ("init"): the webhook is still there, nothing new is made.
		await node.activate('init');
		expect(webhooksAt(node.webhookUrl()).map((webhook) => webhook.id)).toEqual([first.id]);

		await suite.clients.automation.webhooks.delete({ webhookId: first.id });
		expect(await node.hook('checkExists')).toBe(false);
		expect(stored(node).webhooks).toBeUndefined();

		await node.activate('init');
		const again = webhooksAt(node.webhookUrl());
		expect(again).toHaveLength(1);
		// The owner's webhook, deleted moments ago, taken back with whatever it held.
		expect(again[0].id).toBe(first.id);
		expect(again[0].secret).not.toBe(firstSecret);
		expect(stored(node).webhooks?.[node.webhookUrl()]?.webhookId).toBe(again[0].id);
		await node.deactivate();
	});

	it('registers again in place a webhook whose events were changed at the service, and re-enables a disabled one', async () => {
		const node = trigger({
			type: TRIGGER_TYPES.messaging,
			parameters: { events: ['message.received'] },
		});
		await node.activate();
		const [first] = webhooksAt(node.webhookUrl());

		await suite.clients.workspace.webhooks.update({
			webhookId: first.id,
			body: { events: ['message.sent'] },
		});
		await node.activate('init');
		const [replaced, ...others] = webhooksAt(node.webhookUrl());
		expect(others).toHaveLength(0);
		expect(replaced.id).toBe(first.id);
		expect(replaced.events).toEqual(['message.received']);

		const record = suite.sandbox.store.get('webhooks', replaced.id) as WebhookRecord;
		record.status = 'disabled';
		record.disabledReason = 'deliveries kept failing';
		expect(await node.hook('checkExists')).toBe(true);
		expect(suite.sandbox.store.get('webhooks', replaced.id)?.status).toBe('active');
		await node.deactivate();
	});
});

describe('deactivation', () => {
	it('deletes the webhook and clears the static data; a webhook already gone is fine', async () => {
		const node = trigger({ type: TRIGGER_TYPES.shortLink, parameters: {} });
		await node.activate();
		expect(webhooksAt(node.webhookUrl())).toHaveLength(1);
		await node.deactivate();
		expect(webhooksAt(node.webhookUrl())).toHaveLength(0);
		expect(stored(node)).toEqual({});

		await node.activate();
		const [webhook] = webhooksAt(node.webhookUrl());
		await suite.clients.shortLink.webhooks.delete({ webhookId: webhook.id });
		await expect(node.deactivate()).resolves.toBeUndefined();
		expect(stored(node)).toEqual({});
	});

	it('leaves nothing behind after 20 activate/deactivate cycles', async () => {
		const node = trigger({
			type: TRIGGER_TYPES.automation,
			parameters: { listenTo: 'chosen', eventNames: 'cycle.event' },
		});
		const before = (await suite.clients.automation.webhooks.list()).data.length;
		const ids = new Set<string>();
		for (let cycle = 0; cycle < 20; cycle++) {
			await node.activate();
			const current = webhooksAt(node.webhookUrl());
			expect(current).toHaveLength(1);
			ids.add(current[0].id);
			await node.deactivate();
		}
		// One owner, one webhook: each activation took back the one the deactivation before deleted.
		expect(ids.size).toBe(1);
		expect(webhooksAt(node.webhookUrl())).toHaveLength(0);
		expect((await suite.clients.automation.webhooks.list()).data).toHaveLength(before);
		expect(stored(node)).toEqual({});
	});

	it('never leaves a second webhook when create runs again over a registration', async () => {
		const node = trigger({ type: TRIGGER_TYPES.automation, parameters: {} });
		await node.hook('create');
		await node.hook('create');
		expect(webhooksAt(node.webhookUrl())).toHaveLength(1);
		await node.deactivate();
		expect(webhooksAt(node.webhookUrl())).toHaveLength(0);
	});
});

describe('test URL ("listen for test event")', () => {
	it('registers its own webhook beside the production one, and removes only its own', async () => {
		const node = trigger({ type: TRIGGER_TYPES.shortLink, parameters: {} });
		await node.activate();
		const [production] = webhooksAt(node.webhookUrl());

		await node.listenForTest();
		const [test, ...others] = webhooksAt(node.webhookUrl(true));
		expect(others).toHaveLength(0);
		expect(test.url).toMatch(/\/webhook-test\//);
		expect(test.secret).not.toBe(production.secret);

		await node.stopListening();
		expect(webhooksAt(node.webhookUrl(true))).toHaveLength(0);
		expect(webhooksAt(node.webhookUrl()).map((webhook) => webhook.id)).toEqual([production.id]);
		expect(await node.hook('checkExists')).toBe(true);
		await node.deactivate();
		expect(webhooksAt(node.webhookUrl())).toHaveLength(0);
	});
});
