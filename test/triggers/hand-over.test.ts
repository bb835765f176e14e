/**
 * The Multichannel Trigger and hand-over to a person, against the sandbox: with Skip Chats a Person Is Handling,
 * a chat's messages start nothing from its hand-over (through the API, or the business answering from its own
 * phone) until it is given back, acknowledged with the reason, while the hand-over events themselves run; without
 * the option (a workflow made before it existed) every message runs, marked handedOver.
 */
import type { TriggerUnderTest } from '../../dev/harness/triggers';
import { useMessagingTrigger } from '../support/triggers';

const suite = useMessagingTrigger('Hand-over trigger', '+14155550600');
const EVENTS = ['message.received', 'message.sent', 'chat.handed_over', 'chat.handed_back'];
const ANA = '+14155550601';

/** Each run as `<type> <text or by/reason>[ handedOver]`, sorted: deliveries of different events may run in any order. */
async function runsOf(node: TriggerUnderTest, count: number) {
	return (await suite.eventsRun(node, count))
		.map(({ type, data }) => {
			const what = (data.content as { text?: string } | undefined)?.text ?? data.by ?? data.reason;
			return `${type} ${String(what)}${type.startsWith('message.') && data.handedOver === true ? ' handedOver' : ''}`;
		})
		.sort();
}

it('skips the messages of a handed-over chat with the option, runs every one without it', async () => {
	const { client, instanceId } = suite;
	const agent = await suite.activated({ skipHandedOver: true }, 'Agent', EVENTS);
	const every = await suite.activated({}, 'Every message', EVENTS);
	const write = (text: string) =>
		suite.sandboxCall(`/sandbox/instances/${instanceId}/inbound`, { from: ANA, text });

	await write('a: hello');
	await client.chats.handOver({ instanceId, chatId: ANA });
	await write('b: a person please');
	await suite.sandboxCall(`/sandbox/instances/${instanceId}/chats/${ANA}/answer-as-business`, {
		text: 'c: here I am',
	});
	await client.chats.giveBack({ instanceId, chatId: ANA });
	await write('d: thanks');

	expect(await runsOf(every, 6)).toEqual(
		[
			'message.received a: hello',
			'chat.handed_over api',
			'message.received b: a person please handedOver',
			'message.sent c: here I am handedOver',
			'chat.handed_back api',
			'message.received d: thanks',
		].sort(),
	);
	expect(await runsOf(agent, 6)).toEqual(
		[
			'message.received a: hello',
			'chat.handed_over api',
			'chat.handed_back api',
			'message.received d: thanks',
		].sort(),
	);
	expect(suite.skipReasons(agent)).toEqual(['a chat a person is handling (handed over)']);
}, 120_000);
