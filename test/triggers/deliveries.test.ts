/**
 * End to end within the tests: the sandbox delivers signed webhooks over loopback to a local stand-in for
 * n8n's webhook endpoint, which hands each one to the trigger's `webhook()` in n8n-core's `WebhookContext`.
 * A short-link click, an inbound message and a published automation event each start an execution of their
 * trigger, verified against the secret the trigger registered.
 */
import type { IDataObject } from 'n8n-workflow';

import { raw, sleep, waitFor } from '../support/sandbox';
import { useTriggerSuite } from '../support/triggers';
import {
	logLines,
	TRIGGER_TYPES,
	type Delivery,
	type TriggerUnderTest,
} from '../../dev/harness/triggers';

const IPHONE_SAFARI =
	'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

const suite = useTriggerSuite();
const { activated } = suite;

const secretOf = (node: TriggerUnderTest, test = false) =>
	(node.nodeStaticData(test).webhooks as Record<string, { secret: string }>)[node.webhookUrl(test)]
		.secret;

function executions(node: TriggerUnderTest, count: number, what: string): Promise<Delivery[]> {
	return waitFor(
		() => {
			const started = suite.endpoint.executions(node);
			return started.length >= count ? started : undefined;
		},
		5000,
		what,
	);
}

/** What the output of one execution must never carry: the signing secret. */
function expectNoSecret(node: TriggerUnderTest, test = false) {
	const secret = secretOf(node, test);
	for (const delivery of suite.endpoint.of(node)) {
		expect(JSON.stringify(delivery.items ?? [])).not.toContain(secret);
		expect(delivery.responseBody).not.toContain(secret);
	}
	expect(logLines.join('\n')).not.toContain(secret);
}

describe('Multichannel Short Link Trigger', () => {
	it('produces the click when a sandbox short link is opened, and skips bot clicks', async () => {
		const link = await suite.clients.shortLink.links.create({
			body: { url: 'https://example.com/spring', code: 'trigger-spring', title: 'Spring' },
		});
		const other = await suite.clients.shortLink.links.create({
			body: { url: 'https://example.com/x' },
		});
		const node = await activated({
			type: TRIGGER_TYPES.shortLink,
			parameters: { events: ['link.clicked'], linkIds: [link.id] },
		});

		const visit = await raw(suite.sandbox.baseUrl, 'GET', '/trigger-spring', {
			headers: { 'user-agent': IPHONE_SAFARI, 'cf-ipcountry': 'fr' },
		});
		expect(visit.status).toBe(302);

		const [started] = await executions(node, 1, 'the click to start an execution');
		expect(started.status).toBe(200);
		expect(started.headers['x-multichannel-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
		const event = JSON.parse(started.rawBody) as IDataObject;
		expect(started.items).toEqual([
			{
				json: {
					id: event.id,
					type: 'link.clicked',
					createdAt: event.createdAt,
					workspaceId: suite.sandbox.workspaceId,
					data: {
						link: expect.objectContaining({ id: link.id, code: 'trigger-spring' }),
						click: expect.objectContaining({
							linkId: link.id,
							country: 'FR',
							device: 'mobile',
							bot: false,
						}),
					},
				},
			},
		]);

		// A crawler's click is delivered, acknowledged and dropped; another link's click is not even sent.
		await raw(suite.sandbox.baseUrl, 'GET', '/trigger-spring', {
			headers: { 'user-agent': GOOGLEBOT },
		});
		await raw(suite.sandbox.baseUrl, 'GET', `/${other.code as string}`);
		const bot = await waitFor(
			() => suite.endpoint.of(node).find((delivery) => delivery.rawBody.includes('"bot":true')),
			5000,
			'the bot click delivery',
		);
		expect(bot.status).toBe(200);
		expect(bot.items).toBeUndefined();
		expect(JSON.parse(bot.responseBody)).toMatchObject({
			executed: false,
			reason: 'click by a bot',
		});
		await sleep(100);
		expect(suite.endpoint.of(node)).toHaveLength(2);
		expect(suite.endpoint.executions(node)).toHaveLength(1);
		expectNoSecret(node);
	});
});

describe('Multichannel Trigger', () => {
	it('produces an injected inbound message, for the chosen instance only', async () => {
		const sandboxCall = (path: string, body: unknown = {}) =>
			raw(suite.sandbox.baseUrl, 'POST', path, { key: suite.keys.workspace, body });
		const connected = async (name: string, phoneNumber: string) => {
			const instance = await suite.clients.workspace.instances.create({ body: { name } });
			await suite.clients.workspace.instances.connect({
				instanceId: instance.id,
				body: { method: 'qr' },
			});
			expect(
				(await sandboxCall(`/sandbox/instances/${instance.id}/scan`, { phoneNumber })).status,
			).toBe(200);
			return instance;
		};
		const instance = await connected('Support line', '+14155550111');
		const elsewhere = await connected('Sales line', '+14155550112');
		const node = await activated({
			type: TRIGGER_TYPES.messaging,
			parameters: { events: ['message.received'], instanceIds: [instance.id] },
		});

		await sandboxCall(`/sandbox/instances/${elsewhere.id}/inbound`, {
			from: '+14155550199',
			text: 'Not for this trigger',
		});
		const injected = await sandboxCall(`/sandbox/instances/${instance.id}/inbound`, {
			from: '+14155550122',
			text: 'Hello from a customer',
		});
		expect(injected.status).toBe(201);
		const messageId = (injected.body as { id: string }).id;

		const [started] = await executions(node, 1, 'the inbound message to start an execution');
		expect(started.items?.map((item) => item.json)).toEqual([
			expect.objectContaining({
				type: 'message.received',
				id: expect.stringMatching(/^evt_/),
				createdAt: expect.any(String),
				data: expect.objectContaining({
					id: messageId,
					instanceId: instance.id,
					direction: 'inbound',
					from: '+14155550122',
					content: expect.objectContaining({ text: 'Hello from a customer' }),
				}),
			}),
		]);
		await sleep(100);
		expect(suite.endpoint.of(node)).toHaveLength(1);
		expectNoSecret(node);
	});
});

describe('Multichannel Automation Trigger', () => {
	it('receives the chosen published events, with only the data when asked', async () => {
		const node = await activated({
			type: TRIGGER_TYPES.automation,
			parameters: {
				listenTo: 'chosen',
				eventNames: 'order.created',
				options: { onlyData: true },
			},
		});
		await suite.clients.automation.events.publish({
			body: { name: 'order.updated', payload: { n: 0 } },
		});
		const published = await suite.clients.automation.events.publish({
			body: { name: 'order.created', payload: { orderId: 42, total: 99.5 } },
		});

		const [started] = await executions(node, 1, 'the automation event to start an execution');
		expect(started.items).toEqual([
			{
				json: expect.objectContaining({ id: published.id, payload: { orderId: 42, total: 99.5 } }),
			},
		]);
		await sleep(100);
		expect(suite.endpoint.of(node)).toHaveLength(1);
		expectNoSecret(node);
	});

	it('works on the test URL while the editor listens for a test event', async () => {
		const node = await activated({ type: TRIGGER_TYPES.automation, parameters: {} });
		await node.listenForTest();
		const published = await suite.clients.automation.events.publish({
			body: { name: 'test.ping', payload: { hello: 'world' } },
		});

		const test = await waitFor(
			() => suite.endpoint.executions(node).find((delivery) => delivery.test),
			5000,
			'the test-URL delivery',
		);
		expect(test.items?.[0].json).toMatchObject({
			type: 'automation.test.ping',
			data: { id: published.id, payload: { hello: 'world' } },
		});
		// The production webhook got it as well: both are registered while the editor listens.
		await waitFor(
			() => suite.endpoint.executions(node).find((delivery) => !delivery.test),
			5000,
			'the production delivery',
		);
		expectNoSecret(node, true);
		await node.stopListening();
	});

	it('runs again when a proxy lost n8n’s answer to the run: the claim lapsed with that attempt, and no event is lost', async () => {
		const node = await activated({ type: TRIGGER_TYPES.automation, parameters: {} });
		let failed = false;
		// A proxy in front of n8n that gave up waiting: 504, though the execution started. The service cannot tell
		// it from an n8n that died after claiming, so the claim (a lease on that attempt) lapses.
		suite.endpoint.answerAfterExecution = (delivery) => {
			if (delivery.trigger !== node || failed) return 200;
			failed = true;
			return 504;
		};
		try {
			await suite.clients.automation.events.publish({ body: { name: 'retry.me', payload: {} } });
			const [again] = await waitFor(
				() => {
					const deliveries = suite.endpoint.of(node);
					return deliveries.length >= 2 ? deliveries.slice(1) : undefined;
				},
				5000,
				'the redelivery',
			);
			expect(again.headers['x-multichannel-delivery-attempt']).toBe('2');
			expect(again.status).toBe(200);
			expect(again.items).toHaveLength(1);
			expect(again.responseHeaders['x-multichannel-ack']).toBe(
				again.headers['x-multichannel-delivery-id'],
			);
			await sleep(200);
			// Acknowledged: delivered, never sent a third time.
			expect(suite.endpoint.of(node)).toHaveLength(2);
		} finally {
			suite.endpoint.answerAfterExecution = () => 200;
		}
	});
});
