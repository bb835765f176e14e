/**
 * "Batch Events" of the Short Link and Automation Triggers, through n8n-core against the sandbox: activating
 * registers the webhook with `batch`; a batch delivery is one execution with one item per event (the item the
 * event makes alone), the trigger's own filters (chosen link, bot clicks) applied per event first; the batch is
 * claimed once, so a redelivery runs nothing more; without the option, every event runs alone as before.
 */
import type { IDataObject } from 'n8n-workflow';

import { TRIGGER_TYPES, type TriggerUnderTest } from '../../dev/harness/triggers';
import { PHONE_BROWSER, raw, sleep, waitFor } from '../support/sandbox';
import { useTriggerSuite } from '../support/triggers';

const suite = useTriggerSuite();

const batching = (maxEvents: number, maxWaitSeconds: number) => ({
	options: { batch: { settings: { maxEvents, maxWaitSeconds } } },
});

function shortLinkTrigger(parameters: IDataObject): Promise<TriggerUnderTest> {
	return suite.activated({
		type: TRIGGER_TYPES.shortLink,
		parameters: { events: ['link.clicked'], ...parameters },
		credentials: {
			multichannelShortLinkApi: { baseUrl: suite.sandbox.baseUrl, apiKey: suite.keys.shortLink },
		},
	});
}

async function click(code: string, userAgent = PHONE_BROWSER): Promise<void> {
	const visit = await raw(suite.sandbox.baseUrl, 'GET', `/${code}`, {
		headers: { 'user-agent': userAgent },
	});
	expect(visit.status).toBe(302);
}

const newLink = async (url: string) => {
	const link = await suite.clients.shortLink.links.create({ body: { url } });
	return { id: link.id, code: link.code as string };
};

describe('Batch Events', () => {
	it('registers batch; a batch is one execution, an item per click its filters take, claimed once', async () => {
		const chosen = await newLink('https://shop.example/viral');
		const other = await newLink('https://shop.example/other');
		const batched = await shortLinkTrigger({ linkIds: [chosen.id], ...batching(4, 2) });
		const alone = await shortLinkTrigger({ linkIds: [chosen.id] });
		const hooks = await suite.clients.shortLink.webhooks.list({});
		const hook = hooks.data.find((each) => each.url === batched.webhookUrl())!;
		expect(hook).toMatchObject({ batch: { maxEvents: 4, maxWaitSeconds: 2 } });
		expect(hooks.data.find((each) => each.url === alone.webhookUrl())).toMatchObject({
			batch: null,
		});

		await click(chosen.code);
		await click(other.code);
		await click(chosen.code, 'Googlebot/2.1 (+http://www.google.com/bot.html)');
		await click(chosen.code);
		await click(chosen.code);
		const execution = await waitFor(
			() => suite.endpoint.executions(batched)[0],
			10_000,
			'the batch to run',
		);
		const items = (execution.items ?? []).map((item) => item.json);
		// The bot's click is in the batch (the service filters links, not bots) and dropped by the trigger.
		expect(items).toHaveLength(3);
		// Each item is the one the click makes alone.
		const aloneRuns = await waitFor(
			() =>
				suite.endpoint.executions(alone).length === 3
					? suite.endpoint.executions(alone)
					: undefined,
			10_000,
			'three runs without batching',
		);
		expect(aloneRuns.every((run) => run.items?.length === 1)).toBe(true);
		expect(items).toEqual(aloneRuns.map((run) => run.items![0].json));
		expect(items.every((item) => item.type === 'link.clicked')).toBe(true);

		// Redelivered: the batch was claimed once, nothing runs again.
		const batchId = JSON.parse(execution.rawBody).id as string;
		const again = await raw(
			suite.sandbox.baseUrl,
			'POST',
			`/sandbox/webhooks/${hook.id}/redeliver`,
			{
				key: suite.keys.workspace,
				body: { eventId: batchId, copies: 2 },
			},
		);
		expect(again.status).toBe(200);
		await sleep(300);
		expect(suite.endpoint.executions(batched)).toHaveLength(1);
		await batched.stopListening();
		await alone.stopListening();
	});

	it('the Automation Trigger batches too: one execution with the events in order', async () => {
		const node = await suite.activated({
			type: TRIGGER_TYPES.automation,
			parameters: { listenTo: 'chosen', eventNames: 'order.paid', ...batching(3, 300) },
		});
		for (const n of [1, 2, 3]) {
			await suite.clients.automation.events.publish({
				body: { name: 'order.paid', payload: { n } },
			});
		}
		const execution = await waitFor(() => suite.endpoint.executions(node)[0], 10_000, 'the batch');
		expect((execution.items ?? []).map((item) => (item.json.data as IDataObject).payload)).toEqual([
			{ n: 1 },
			{ n: 2 },
			{ n: 3 },
		]);
		await node.stopListening();
	});
});

describe('Batch Events out of range (an expression, an imported workflow)', () => {
	it.each([
		[
			'Max Events 0',
			batching(0, 5),
			'Invalid value for "Batch Events › Max Events": must be at least 1',
		],
		[
			'Max Events 5000',
			batching(5000, 5),
			'Invalid value for "Batch Events › Max Events": must be at most 1000',
		],
		[
			'Max Wait 301',
			batching(100, 301),
			'Invalid value for "Batch Events › Max Wait (Seconds)": must be at most 300',
		],
	])(
		'%s: activation is refused, naming the field as the editor shows it',
		async (_, options, message) => {
			await expect(shortLinkTrigger(options)).rejects.toThrow(message);
			await expect(
				suite.activated({
					type: TRIGGER_TYPES.automation,
					parameters: { listenTo: 'all', ...options },
				}),
			).rejects.toThrow(message);
		},
	);
});
