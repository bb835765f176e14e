/**
 * The Multichannel Trigger on chat events against the sandbox, with their filters.
 *
 * Chat Labels Changed: a label put on a chat, taken off, and a label deleted (taken off every chat) each start the
 * workflow once with the chat, its labels now, what was added and removed; the Labels and Label Change options keep
 * only the changes chosen, acknowledging the rest with the reason, and let every other event through.
 *
 * The contact's acts (issue 48): a reaction put on and taken off, a contact's edit and delete beside the business's
 * own edit, presence and a restriction each start the workflow once; Reaction Change and Reaction Emojis, Edited or
 * Deleted By, Presence States and Chats keep only what they choose, acknowledging the rest with the reason; a
 * deletion delivered again runs nothing more.
 */
import type { TriggerUnderTest } from '../../dev/harness/triggers';
import { useMessagingTrigger } from '../support/triggers';
import { sleep } from '../support/waiting';

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

const anaNumber = '+14155550801';
const benNumber = '+14155550802';

/** Each run as `<type> <who> <what>`, once the trigger heard `count` events; sorted, as runs come in any order. */
async function actsOf(node: TriggerUnderTest, count: number) {
	return (await suite.eventsRun(node, count, 30_000))
		.map(({ type, data }) => {
			const what =
				type === 'message.reaction'
					? `${String(data.action)} ${String(data.emoji)}`
					: type === 'presence.updated'
						? String(data.state)
						: type === 'instance.restricted'
							? String(data.reason)
							: String(data.by);
			const who = type === 'instance.restricted' ? '-' : String(data.from);
			return `${type} ${who} ${what}`;
		})
		.sort();
}

it('reactions, edits, deletions, presence and a restriction: one run each, filtered as chosen', async () => {
	const { client, instanceId } = suite;
	const act = async (path: string, body: object = {}) => {
		const answer = await suite.sandboxCall(`/sandbox/instances/${instanceId}${path}`, body);
		expect(answer.status).toBeLessThan(300);
		return answer.body as { id: string };
	};
	const toAna = await client.messages.sendText({
		instanceId,
		body: { to: anaNumber, text: 'Shipped' },
	});
	const toBen = await client.messages.sendText({
		instanceId,
		body: { to: benNumber, text: 'Shipped' },
	});

	const every = await suite.activated({}, 'Every act', [
		'message.reaction',
		'message.edited',
		'message.deleted',
		'instance.restricted',
	]);
	const thumbsOff = await suite.activated(
		{ reactionChange: 'removed', reactionEmojis: '👍, 👌' },
		'Thumbs taken off',
		['message.reaction'],
	);
	const byContact = await suite.activated({ changedBy: 'contact' }, 'By the contact', [
		'message.edited',
		'message.deleted',
	]);
	const typing = await suite.activated({ presenceStates: ['typing'] }, 'Typing', [
		'presence.updated',
	]);
	const anaOnly = await suite.activated({ chats: anaNumber }, 'Ana', [
		'message.reaction',
		'presence.updated',
	]);

	await act(`/messages/${toAna.id}/react`, { emoji: '👍' });
	await act(`/messages/${toAna.id}/react`, { emoji: '' });
	await act(`/messages/${toBen.id}/react`, { emoji: '❤️' });
	const said = await act('/inbound', { from: anaNumber, text: 'I want 2' });
	await act(`/messages/${said.id}/edit`, { text: 'I want 3' });
	await act(`/messages/${said.id}/delete`);
	await client.messages.edit({ instanceId, messageId: toAna.id, body: { text: 'Shipped today' } });
	await act('/presence', { from: anaNumber, state: 'typing' });
	await act('/presence', { from: anaNumber, state: 'online' });
	await act('/presence', { from: benNumber, state: 'typing' });
	await act('/restrict', { reason: 'unusual_activity', hours: 12 });

	expect(await actsOf(every, 7)).toEqual(
		[
			`message.reaction ${anaNumber} added 👍`,
			`message.reaction ${anaNumber} removed 👍`,
			`message.reaction ${benNumber} added ❤️`,
			`message.edited ${anaNumber} contact`,
			`message.deleted ${anaNumber} contact`,
			'message.edited +14155550500 business',
			'instance.restricted - unusual_activity',
		].sort(),
	);
	expect(await actsOf(thumbsOff, 3)).toEqual([`message.reaction ${anaNumber} removed 👍`]);
	expect(suite.skipReasons(thumbsOff)).toEqual(['a reaction put on (Reaction Change)']);
	expect(await actsOf(byContact, 3)).toEqual(
		[`message.deleted ${anaNumber} contact`, `message.edited ${anaNumber} contact`].sort(),
	);
	expect(suite.skipReasons(byContact)).toEqual(['changed by the business (Edited or Deleted By)']);
	expect(await actsOf(typing, 3)).toEqual(
		[`presence.updated ${anaNumber} typing`, `presence.updated ${benNumber} typing`].sort(),
	);
	expect(suite.skipReasons(typing)).toEqual(['presence online, not among Presence States']);
	expect(await actsOf(anaOnly, 6)).toEqual(
		[
			`message.reaction ${anaNumber} added 👍`,
			`message.reaction ${anaNumber} removed 👍`,
			`presence.updated ${anaNumber} typing`,
			`presence.updated ${anaNumber} online`,
		].sort(),
	);
	expect(suite.skipReasons(anaOnly)).toEqual(['a chat not among Chats']);

	// The deletion delivered again, three copies at once: claimed once, it runs nothing more.
	const hooks = await client.webhooks.list({});
	const hook = hooks.data.find((each) => each.url === byContact.webhookUrl());
	const deletion = suite.endpoint
		.executions(byContact)
		.map((delivery) => delivery.items?.[0].json as { id: string; type: string })
		.find((event) => event.type === 'message.deleted');
	const again = await suite.sandboxCall(`/sandbox/webhooks/${String(hook?.id)}/redeliver`, {
		eventId: deletion?.id,
		copies: 3,
	});
	expect(again.status).toBe(200);
	await sleep(300);
	expect(
		suite.endpoint
			.executions(byContact)
			.filter((delivery) => delivery.items?.[0].json.type === 'message.deleted'),
	).toHaveLength(1);
}, 60_000);
