/**
 * The Multichannel Trigger's message filters (nodes/MultichannelTrigger/filters.ts) against the sandbox: contacts
 * write, send files and tap at the sandbox, which delivers signed webhooks over loopback to n8n-core's webhook
 * context. Each filter starts the workflow for what it takes only; what it leaves out is acknowledged with its
 * reason and starts nothing. A bad filter is refused at activation, naming the option.
 */
import { NodeOperationError, type INodeParameters } from 'n8n-workflow';

import type { TriggerUnderTest } from '../../dev/harness/triggers';
import { signPayload } from '../../src/client';
import { raw } from '../support/sandbox';
import { useMessagingTrigger } from '../support/triggers';
import { waitFor } from '../support/waiting';

const suite = useMessagingTrigger('Filters', '+14155550300');

/** A contact's text (or a file, with `sample`), answered 201 by the sandbox; its message id. */
async function send(from: string, text: string, extra: Record<string, unknown> = {}) {
	const path = extra.sample ? 'inbound/media' : 'inbound';
	const body = extra.sample ? { from, caption: text, ...extra } : { from, text, ...extra };
	const answer = await suite.sandboxCall(`/sandbox/instances/${suite.instanceId}/${path}`, body);
	expect(answer.status).toBe(201);
	return (answer.body as { id: string }).id;
}

const startedFor = (node: TriggerUnderTest, count: number) => suite.startedFor(node, count);

const activated = (options: INodeParameters, name: string) => suite.activated(options, name);

it('text filters: contains, starts with a keyword and matches a pattern, in any case, captions included', async () => {
	const contains = await activated({ textContains: 'Refund' }, 'Contains refund');
	const startsWith = await activated({ textStartsWith: 'help' }, 'Starts with help');
	const pattern = await activated({ textPattern: '^(hi|hello)\\b' }, 'Greets');

	const from = '+14155550301';
	const refund = await send(from, 'About my REFUND for order 1042');
	const help = await send(from, '  HELP me please');
	const hello = await send(from, 'Hello there');
	const helpless = await send(from, 'I need help'); // contains "help", does not start with it
	const caption = await send(from, 'hi, the refund form', { sample: 'pdf' });

	expect(await startedFor(contains, 5)).toEqual([refund, caption].sort());
	expect(await startedFor(startsWith, 5)).toEqual([help]);
	expect(await startedFor(pattern, 5)).toEqual([hello, caption].sort());
	expect(suite.endpoint.of(startsWith).map((delivery) => delivery.status)).toEqual(
		Array(5).fill(200),
	);
	const reasons = suite.endpoint
		.of(startsWith)
		.filter((delivery) => !delivery.items)
		.map((delivery) => (JSON.parse(delivery.responseBody) as { reason: string }).reason);
	expect(reasons).toContain('text not starting with Text Starts With');
	expect(helpless).toBeDefined();
});

it('a pattern is tested on the first 4,096 characters of a text only', async () => {
	const node = await activated({ textPattern: 'x$' }, 'Ends with x');
	const short = await send('+14155550302', `${'a'.repeat(4000)}x`);
	expect(await startedFor(node, 1)).toEqual([short]);

	// Longer than the sandbox sends: signed here with the registration's secret, as a service could deliver it.
	const body = JSON.stringify({
		id: `evt_long_${Date.now()}`,
		type: 'message.received',
		createdAt: new Date().toISOString(),
		data: {
			id: 'msg_long',
			type: 'text',
			chatId: '14155550302@s.whatsapp.net',
			content: { text: `${'a'.repeat(4096)}x` },
		},
	});
	const { secret } = Object.values(
		node.nodeStaticData().webhooks as Record<string, { secret: string }>,
	)[0];
	const answer = await raw(suite.endpoint.url, 'POST', new URL(node.webhookUrl()).pathname, {
		body,
		headers: {
			'content-type': 'application/json',
			'x-multichannel-delivery-id': 'dlr_long',
			'x-multichannel-signature': signPayload(secret, body),
		},
	});
	expect(answer.status).toBe(200);
	expect(answer.body).toMatchObject({
		executed: false,
		reason: 'text not matching Text Matches Pattern',
	});
});

it('message kinds: texts, each kind of file and taps', async () => {
	const files = await activated({ messageKinds: ['image', 'document'] }, 'Images and PDFs');
	const taps = await activated({ messageKinds: ['tap'] }, 'Taps');
	const texts = await activated({ messageKinds: ['text', 'audio'] }, 'Texts and voice');
	const none = await activated({ messageKinds: [] }, 'No kind chosen');

	const from = '+14155550303';
	const text = await send(from, 'Hi');
	const image = await send(from, '', { sample: 'image' });
	const pdf = await send(from, '', { sample: 'pdf' });
	const voice = await send(from, '', { sample: 'voice' });
	const buttons = await suite.client.messages.sendButtons({
		instanceId: suite.instanceId,
		body: { to: from, text: 'Still on?', buttons: [{ id: 'yes', title: 'Yes' }] },
	});
	const tapped = await suite.sandboxCall(
		`/sandbox/instances/${suite.instanceId}/messages/${buttons.id}/tap`,
		{ id: 'yes' },
	);
	const tap = (tapped.body as { id: string }).id;

	expect(await startedFor(files, 5)).toEqual([image, pdf].sort());
	expect(await startedFor(taps, 5)).toEqual([tap]);
	expect(await startedFor(texts, 5)).toEqual([text, voice].sort());
	expect(await startedFor(none, 5)).toEqual([text, image, pdf, voice, tap].sort());
});

it('chat type and chosen chats: a number and its chat id are one chat', async () => {
	const people = await activated({ chatType: 'people' }, 'People');
	const groups = await activated({ chatType: 'groups' }, 'Groups');
	const chosen = await activated(
		{ chats: '+1 415 555 0304, 14155550305@s.whatsapp.net' },
		'Two chats',
	);

	const group = await suite.client.groups.create({
		instanceId: suite.instanceId,
		body: { subject: 'Team', participants: ['+14155550304', '+14155550306'] },
	});
	const inGroup = await send('+14155550304', 'In the group', { groupId: group.id });
	const first = await send('+14155550304', 'Me, by number');
	const second = await send('+14155550305', 'Me, by chat id');
	const other = await send('+14155550306', 'Not chosen');

	expect(await startedFor(people, 4)).toEqual([first, second, other].sort());
	expect(await startedFor(groups, 4)).toEqual([inGroup]);
	expect(await startedFor(chosen, 4)).toEqual([first, second].sort());
});

it('a person who hides their number is chosen by @username, contact id or chat id, and named in the output', async () => {
	const written = await suite.sandboxCall(`/sandbox/instances/${suite.instanceId}/inbound`, {
		from: '@lena.hidden',
		text: 'Hi',
	});
	const lena = written.body as { from: string; chatId: string };
	const byUsername = await activated({ chats: '@Lena.Hidden' }, 'By username');
	const byContact = await activated({ chats: lena.from }, 'By contact id');
	const byChat = await activated({ chats: lena.chatId.toUpperCase() }, 'By chat id');

	const again = await send('@lena.hidden', 'Me again');
	await send('@omar.hidden', 'Someone else');
	for (const node of [byUsername, byContact, byChat]) {
		expect(await startedFor(node, 2)).toEqual([again]);
	}
	const output = suite.endpoint.executions(byUsername)[0].items?.[0].json.data;
	expect(output).toMatchObject({ from: lena.from, username: 'lena.hidden', chatId: lena.chatId });
	expect(output).not.toHaveProperty('phone');
});

it('a gathered burst passes when any one of its messages passes', async () => {
	const node = await activated(
		{ gather: { settings: { quietSeconds: 1, maxWaitSeconds: 20 } }, textStartsWith: 'order' },
		'Orders, gathered',
	);
	await send('+14155550307', 'Hi');
	await send('+14155550307', 'Order 1042 is late');
	await send('+14155550308', 'Hi');
	await send('+14155550308', 'Bye');
	await waitFor(() => suite.endpoint.of(node).length >= 2, 15_000, 'two bursts');
	const started = suite.endpoint.executions(node).map((delivery) => delivery.items?.[0].json.data);
	expect(started).toEqual([expect.objectContaining({ gathered: true, from: '+14155550307' })]);
});

it('other events than received messages are not filtered', async () => {
	const node = await suite.activated(
		{ textContains: 'nothing like it', chatType: 'groups', messageKinds: ['tap'] },
		'Sent messages',
		['message.received', 'message.sent'],
	);
	await send('+14155550309', 'Nothing like it here either');
	const sent = await suite.client.messages.sendText({
		instanceId: suite.instanceId,
		body: { to: '+14155550309', text: 'Your order has shipped' },
	});
	await waitFor(() => suite.endpoint.executions(node).length >= 1, 15_000, 'the sent message');
	const [started] = suite.endpoint.executions(node).map((delivery) => delivery.items?.[0].json);
	expect(started).toMatchObject({ type: 'message.sent', data: { id: sent.id } });
});

it('refuses at activation a pattern that is not a regular expression, a nested repetition, a national number and a broken @username, naming the option', async () => {
	const refused = async (options: INodeParameters, message: string) => {
		const activation = activated(options, 'Refused');
		await expect(activation).rejects.toBeInstanceOf(NodeOperationError);
		await expect(activation).rejects.toThrow(message);
	};
	await refused({ textPattern: '(hi' }, 'Invalid value for "Text Matches Pattern": not a valid');
	await refused({ textPattern: '^(a+)+$' }, 'Invalid value for "Text Matches Pattern": a repeated');
	await refused({ chats: '+14155550123, 020 7946 0958' }, '"020 7946 0958" looks like a national');
	await refused({ chats: 'Ana' }, 'Invalid value for "Chats"');
	await refused(
		{ chats: '+14155550123, @ma' },
		'Invalid value for "Chats": "@ma" is not a valid username: after the @ come 3 to 35',
	);
});

/*
 * Hand-over to a person: with Skip Chats a Person Is Handling a chat's messages start nothing from its hand-over
 * (through the API, or the business answering from its own phone) until it is given back, acknowledged with the
 * reason, while the hand-over events run; without the option (a workflow made before it) every message runs.
 */
const HAND_OVER_EVENTS = [
	'message.received',
	'message.sent',
	'chat.handed_over',
	'chat.handed_back',
];
const HANDED_OVER = '+14155550601';

/** Each run as `<type> <text or by/reason>[ handedOver]`, sorted: deliveries of different events may run in any order. */
async function handOverRunsOf(node: TriggerUnderTest, count: number) {
	return (await suite.eventsRun(node, count))
		.map(({ type, data }) => {
			const what = (data.content as { text?: string } | undefined)?.text ?? data.by ?? data.reason;
			return `${type} ${String(what)}${type.startsWith('message.') && data.handedOver === true ? ' handedOver' : ''}`;
		})
		.sort();
}

it('Skip Chats a Person Is Handling: a handed-over chat’s messages start nothing until it is given back; without the option every one runs', async () => {
	const { client, instanceId } = suite;
	const agent = await suite.activated({ skipHandedOver: true }, 'Agent', HAND_OVER_EVENTS);
	const every = await suite.activated({}, 'Every message', HAND_OVER_EVENTS);
	const write = (text: string) =>
		suite.sandboxCall(`/sandbox/instances/${instanceId}/inbound`, { from: HANDED_OVER, text });

	await write('a: hello');
	await client.chats.handOver({ instanceId, chatId: HANDED_OVER });
	await write('b: a person please');
	await suite.sandboxCall(
		`/sandbox/instances/${instanceId}/chats/${HANDED_OVER}/answer-as-business`,
		{
			text: 'c: here I am',
		},
	);
	await client.chats.giveBack({ instanceId, chatId: HANDED_OVER });
	await write('d: thanks');

	expect(await handOverRunsOf(every, 6)).toEqual(
		[
			'message.received a: hello',
			'chat.handed_over api',
			'message.received b: a person please handedOver',
			'message.sent c: here I am handedOver',
			'chat.handed_back api',
			'message.received d: thanks',
		].sort(),
	);
	expect(await handOverRunsOf(agent, 6)).toEqual(
		[
			'message.received a: hello',
			'chat.handed_over api',
			'chat.handed_back api',
			'message.received d: thanks',
		].sort(),
	);
	expect(suite.skipReasons(agent)).toEqual(['a chat a person is handling (handed over)']);
}, 120_000);
