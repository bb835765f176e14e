/**
 * Re-Run Protection (issue 45, item 1), real workflow runs through n8n-core against the sandbox on loopback,
 * counting what the sandbox received: a campaign stopped at item 49, fixed and run again (a new execution) sends
 * each message once in all; Retry On Fail sends once; a run past the window sends again; another node, workflow
 * or input item sending the same text to the same person sends too; Status → Post is protected the same way.
 */
import type { IDataObject } from 'n8n-workflow';

import { runNode, type NodeUnderTest } from '../../dev/harness';
import type { RunNodeOptions } from '../../dev/harness/workflow';
import {
	byId,
	multichannelNode,
	NODE_NAME,
	startService,
	type TestService,
} from '../support/nodes';

const HOUR = 3_600_000;
/** The sandbox's clock runs this far from the node's: a test moves it to send "hours ago" or "tomorrow". */
let offset = 0;
let service: TestService;
let instance: { id: string };

beforeAll(async () => {
	service = await startService({ now: () => Date.now() + offset });
	instance = await service.connectedInstance('Re-runs');
});
afterEach(() => {
	offset = 0;
});
afterAll(async () => await service?.close());

let executions = 1000;
/** Runs the node as a new execution (a new execution id) of the workflow, as a person's re-run is. */
const run = async (node: NodeUnderTest, items: IDataObject[], options: RunNodeOptions = {}) =>
	await runNode(node, {
		credentials: service.credentials,
		items,
		executionId: String(++executions),
		...options,
	});

const sendText = (options: IDataObject = {}, extra: Partial<NodeUnderTest> = {}) =>
	multichannelNode(
		'message',
		{
			operation: 'sendText',
			instanceId: byId('={{ $json.instance }}'),
			to: '={{ $json.phone }}',
			text: '={{ $json.text }}',
			options,
		},
		extra,
	);

function campaign(tag: string, size: number, broken?: number): IDataObject[] {
	return Array.from({ length: size }, (_, index) => ({
		instance: index === broken ? 'inst_gone' : instance.id,
		phone: `+1415558${String(index).padStart(4, '0')}`,
		text: `${tag}: our Sunday offer (${index})`,
	}));
}

/** The outbound messages whose text starts with the tag, by recipient. */
function sentTo(tag: string): Map<string, number> {
	const counts = new Map<string, number>();
	for (const message of service.sandbox.store.all('messages', (record) => {
		const text = (record.content as { text?: string }).text ?? '';
		return record.direction === 'outbound' && text.startsWith(`${tag}:`);
	})) {
		const to = String(message.to);
		counts.set(to, (counts.get(to) ?? 0) + 1);
	}
	return counts;
}
const total = (counts: Map<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);

describe('Re-Run Protection', () => {
	test('200 items stopped at item 49, fixed and run again: each of the 200 is sent once in all', async () => {
		const first = await run(sendText(), campaign('fixed', 200, 49));

		// Items 50–53 were in flight (5 at a time) when item 49 failed: they went too.
		expect(first.error?.message).toMatch(
			/\[item 49\]\. 5\d other items went through \(items 0–48, 50–5\d\); fix this one and run the workflow again: the items that went through are not sent again$/,
		);
		expect(total(sentTo('fixed'))).toBeGreaterThanOrEqual(49);

		const again = await run(sendText(), campaign('fixed', 200));

		expect(again.error).toBeUndefined();
		const counts = sentTo('fixed');
		expect(counts.size).toBe(200);
		expect([...counts.values()].every((count) => count === 1)).toBe(true);
	});

	test('Retry On Fail sends what went through once', async () => {
		const retried = sendText({ concurrency: 1 }, { retry: { retryOnFail: true, maxTries: 2 } });

		const result = await run(retried, campaign('retried', 6, 4));

		expect(result.error?.message).toMatch(/\[item 4\]\. 4 items before it went through/);
		expect(total(sentTo('retried'))).toBe(4);
	});

	test('past the window a run sends again; within it, not', async () => {
		const items = campaign('window', 3);
		const hourly = sendText({ rerunProtectionHours: 1 });
		offset = -2 * HOUR; // the first run, two hours ago
		await run(hourly, items);
		offset = 0;

		await run(hourly, items); // past its 1 hour: sent again
		await run(hourly, items); // within the hour of the last send: not
		expect([...sentTo('window').values()]).toEqual([2, 2, 2]);

		const daily = sendText({}, { id: 'daily' });
		await run(daily, items); // another node: sent
		await run(daily, items); // the same node, again: not
		offset = 13 * HOUR; // past the default 12 hours (the service still knows the key): sent
		await run(daily, items);
		await run(daily, items);
		expect([...sentTo('window').values()]).toEqual([4, 4, 4]);
		offset = 25 * HOUR; // tomorrow, the service's 24 hours over too: sent
		await run(daily, items);
		expect([...sentTo('window').values()]).toEqual([5, 5, 5]);
	});

	test('another input item with the same text to the same person is sent: an auto-reply answers every message', async () => {
		const reply = (messageId: string) => [
			{
				instance: instance.id,
				phone: '+14155589999',
				text: 'replies: thanks, we are on it',
				messageId,
			},
		];
		await run(sendText(), reply('msg_1'));
		await run(sendText(), reply('msg_2'));
		await run(sendText(), reply('msg_2'));
		expect(total(sentTo('replies'))).toBe(2);
	});

	test('another workflow sending the same text to the same person sends it; 0 hours sends every execution', async () => {
		const items = campaign('others', 1);
		await run(sendText(), items, { workflowId: 'campaigns' });
		await run(sendText(), items, { workflowId: 'reminders' });
		await run(sendText(), items, { workflowId: 'reminders' });
		expect(total(sentTo('others'))).toBe(2);

		const unprotected = sendText({ rerunProtectionHours: 0 }, { id: 'unprotected' });
		await run(unprotected, items);
		await run(unprotected, items);
		expect(total(sentTo('others'))).toBe(4);
	});

	test('Status → Post run again posts once', async () => {
		const post = multichannelNode('status', {
			operation: 'post',
			instanceId: byId(instance.id),
			type: 'text',
			text: 'Open on Sunday 10–14',
		});
		const posted = () =>
			service.sandbox.store.all('statuses', (status) => status.instanceId === instance.id).length;
		const before = posted();

		const first = await run(post, [{}]);
		const again = await run(post, [{}]);

		expect(posted()).toBe(before + 1);
		expect(again.json(NODE_NAME)[0].id).toBe(first.json(NODE_NAME)[0].id);
	});
});
