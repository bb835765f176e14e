/**
 * The Multichannel Trigger on Chat Labels Changed against the sandbox: a label put on a chat, taken off, and a
 * label deleted (taken off every chat) each start the workflow once with the chat, its labels now, what was added
 * and removed; the Labels and Label Change options keep only the changes chosen, acknowledging the rest.
 */
import type { TriggerUnderTest } from '../../dev/harness/triggers';
import { useMessagingTrigger } from '../support/triggers';
import { waitFor } from '../support/waiting';

const suite = useMessagingTrigger('Label trigger', '+14155550500');
const EVENTS = ['chat.labels_changed'];
const ana = '14155550501@s.whatsapp.net';
const ben = '14155550502@s.whatsapp.net';

/**
 * Each run's chat, reason and labels added or removed (and the labels after, which tell the order within a chat),
 * once the trigger heard `count` events; sorted, as deliveries of different events may run in any order.
 */
async function runsOf(node: TriggerUnderTest, count: number) {
	const eventIds = () =>
		new Set(
			suite.endpoint
				.of(node)
				.map((delivery) => (JSON.parse(delivery.rawBody) as { id: string }).id),
		);
	await waitFor(() => eventIds().size >= count, 60_000, `${count} events to ${node.node.name}`);
	const runs = new Map<string, string>();
	for (const delivery of suite.endpoint.executions(node)) {
		const event = delivery.items?.[0].json as { id: string; data: Record<string, unknown> };
		const names = (key: string) =>
			(event.data[key] as Array<{ name: string }>).map(({ name }) => name).join('+');
		runs.set(
			event.id,
			`${String(event.data.chatId).slice(0, 11)} ${String(event.data.reason)} +${names('added')} -${names('removed')} =${names('labels')}`,
		);
	}
	return [...runs.values()].sort();
}

it('a label put on, taken off and deleted: one run each, filtered by label and by kind of change', async () => {
	const { client, instanceId } = suite;
	await suite.sandboxCall(`/sandbox/instances/${instanceId}/inbound`, {
		from: '+14155550501',
		text: 'a',
	});
	await suite.sandboxCall(`/sandbox/instances/${instanceId}/inbound`, {
		from: '+14155550502',
		text: 'b',
	});
	const vip = await client.labels.create({ body: { name: 'VIP' } });
	const late = await client.labels.create({ body: { name: 'Late' } });

	const every = await suite.activated({}, 'Every label change', EVENTS);
	const vipOnly = await suite.activated({ labelIds: [vip.id] }, 'VIP only', EVENTS);
	const takenOff = await suite.activated({ labelChange: 'removed' }, 'Taken off', EVENTS);

	await client.chats.addLabel({ instanceId, chatId: ana, labelId: vip.id });
	await client.chats.addLabel({ instanceId, chatId: ana, labelId: late.id });
	await client.chats.addLabel({ instanceId, chatId: ben, labelId: late.id });
	await client.chats.removeLabel({ instanceId, chatId: ana, labelId: vip.id });
	await client.labels.delete({ labelId: late.id });

	expect(await runsOf(every, 6)).toEqual(
		[
			'14155550501 added +VIP - =VIP',
			'14155550501 added +Late - =VIP+Late',
			'14155550502 added +Late - =Late',
			'14155550501 removed + -VIP =Late',
			'14155550501 label_deleted + -Late =',
			'14155550502 label_deleted + -Late =',
		].sort(),
	);
	expect(await runsOf(vipOnly, 6)).toEqual(
		['14155550501 added +VIP - =VIP', '14155550501 removed + -VIP =Late'].sort(),
	);
	expect(await runsOf(takenOff, 6)).toEqual(
		[
			'14155550501 removed + -VIP =Late',
			'14155550501 label_deleted + -Late =',
			'14155550502 label_deleted + -Late =',
		].sort(),
	);
	const reasons = suite.endpoint
		.of(vipOnly)
		.filter((delivery) => !delivery.items)
		.map((delivery) => (JSON.parse(delivery.responseBody) as { reason: string }).reason);
	expect(reasons).toContain('a label not among Labels');
}, 240_000);
