/**
 * The Multichannel Trigger on Chat Labels Changed against the sandbox: a label put on a chat, taken off, and a
 * label deleted (taken off every chat) each start the workflow once with the chat, its labels now, what was added
 * and removed; the Labels and Label Change options keep only the changes chosen, acknowledging the rest with the
 * reason, and let every other event through.
 */
import type { TriggerUnderTest } from '../../dev/harness/triggers';
import { useMessagingTrigger } from '../support/triggers';

const suite = useMessagingTrigger('Label trigger', '+14155550500');
const EVENTS = ['chat.labels_changed'];
const ana = '14155550501@s.whatsapp.net';
const ben = '14155550502@s.whatsapp.net';

/**
 * Each run's chat, reason and labels added or removed (and the labels after, which tell the order within a chat),
 * once the trigger heard `count` events; sorted, as deliveries of different events may run in any order.
 */
async function runsOf(node: TriggerUnderTest, count: number) {
	return (await suite.eventsRun(node, count))
		.map((event) => {
			const chat = String(event.data.chatId).slice(0, 11);
			if (event.type !== 'chat.labels_changed') return `${chat} ${event.type}`;
			const names = (key: string) =>
				(event.data[key] as Array<{ name: string }>).map(({ name }) => name).join('+');
			return `${chat} ${String(event.data.reason)} +${names('added')} -${names('removed')} =${names('labels')}`;
		})
		.sort();
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
	expect(suite.skipReasons(vipOnly)).toEqual(['a label not among Labels']);
	expect(suite.skipReasons(takenOff)).toEqual(['no label taken off (Label Change)']);
}, 240_000);

it('only labels put on, of two chosen (a list an expression gives); other events are not filtered', async () => {
	const { client, instanceId } = suite;
	const gold = await client.labels.create({ body: { name: 'Gold' } });
	const silver = await client.labels.create({ body: { name: 'Silver' } });
	const bronze = await client.labels.create({ body: { name: 'Bronze' } });
	const putOn = await suite.activated(
		{ labelChange: 'added', labelIds: `${gold.id}, ${silver.id}` },
		'Gold or Silver put on',
		[...EVENTS, 'message.received'],
	);

	await client.chats.addLabel({ instanceId, chatId: ben, labelId: gold.id });
	await client.chats.addLabel({ instanceId, chatId: ben, labelId: bronze.id });
	await client.chats.addLabel({ instanceId, chatId: ana, labelId: silver.id });
	await client.chats.removeLabel({ instanceId, chatId: ben, labelId: gold.id });
	await suite.sandboxCall(`/sandbox/instances/${instanceId}/inbound`, {
		from: '+14155550501',
		text: 'c',
	});

	expect(await runsOf(putOn, 5)).toEqual(
		[
			'14155550502 added +Gold - =Gold',
			'14155550501 added +Silver - =Silver',
			'14155550501 message.received',
		].sort(),
	);
	expect(suite.skipReasons(putOn)).toEqual([
		'a label not among Labels',
		'no label put on (Label Change)',
	]);
}, 240_000);
