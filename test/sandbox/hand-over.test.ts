/**
 * Hand-over to a person (SERVICE.md "people"), through real HTTP on the test's clock: a chat handed over through
 * the API or by the business answering from its own phone, its message events marked `handedOver: true`, the
 * quiet period per instance moved on by each message from the phone, given back once (API, quiet period,
 * the sandbox-only due-now), each change one event; gathering never holds such a chat.
 */
import {
	connectedInstance,
	raw,
	receiveAllWorkspaceEvents,
	sandboxWithReceiver,
	sleep,
	waitFor,
	type SandboxWithReceiver,
} from '../support/sandbox';

const MINUTE = 60_000;
const PERSON = '+14155550123';
const CHAT = '14155550123@s.whatsapp.net';
let clock = Date.parse('2026-11-29T09:00:00Z');
const at = (ms: number) => new Date(ms).toISOString();

const suite: SandboxWithReceiver = sandboxWithReceiver({
	now: () => clock,
	rateLimit: false,
	scheduled: { tickMs: 20 },
	simulation: {
		deliveredAfterMs: 60_000,
		readAfterMs: 60_000,
		connectCodeTtlMs: 60_000,
		callRingMs: 60_000,
	},
});
let instanceId: string;
beforeAll(async () => {
	await receiveAllWorkspaceEvents(suite);
	({ id: instanceId } = await connectedInstance(suite.sandbox, 'Shop', '+14155550100'));
});

const sandboxCall = (path: string, body?: unknown) =>
	raw(suite.sandbox.baseUrl, 'POST', `/sandbox/instances/${instanceId}${path}`, {
		key: suite.keys.workspace,
		...(body ? { body } : {}),
	});
const write = async (text: string, from = PERSON) => {
	const sent = await sandboxCall('/inbound', { from, text });
	expect(sent.status).toBe(201);
	return sent.body as { id: string };
};
/** Every delivery of `type`, data only, once each (the receiver hears every workspace event at /all). */
const delivered = (type: string) =>
	suite.receiver.received
		.filter((delivery) => delivery.path === '/all' && delivery.event.type === type)
		.map((delivery) => delivery.event.data as Record<string, unknown>);
const messageEvent = async (type: string, id: string) => {
	await waitFor(() => delivered(type).some((data) => data.id === id), 5000, `${type} ${id}`);
	return delivered(type).find((data) => data.id === id) as Record<string, unknown>;
};
const chats = () => suite.clients.workspace.chats;

it('hands over through the API once, marks the chat’s message events, gives back once', async () => {
	const before = await write('Hello');
	expect(await messageEvent('message.received', before.id)).not.toHaveProperty('handedOver');

	const handed = await chats().handOver({ instanceId, chatId: PERSON });
	expect(handed).toEqual({
		instanceId,
		chatId: CHAT,
		handedOver: true,
		since: at(clock),
		by: 'api',
		givesBackAt: at(clock + 30 * MINUTE),
	});
	expect(await chats().handOver({ instanceId, chatId: CHAT })).toEqual(handed);
	expect((await chats().get({ instanceId, chatId: CHAT })).handOver).toEqual(handed);

	const during = await write('Can a person help me?');
	expect(await messageEvent('message.received', during.id)).toMatchObject({ handedOver: true });
	const reply = await suite.clients.workspace.messages.sendText({
		instanceId,
		body: { to: PERSON, text: 'Yes, one moment' },
	});
	expect(await messageEvent('message.sent', reply.id)).toMatchObject({ handedOver: true });

	const back = await chats().giveBack({ instanceId, chatId: CHAT });
	expect(back).toMatchObject({ handedOver: false, since: null, by: null, givesBackAt: null });
	expect(await chats().giveBack({ instanceId, chatId: CHAT })).toEqual(back);
	const after = await write('Thanks');
	expect(await messageEvent('message.received', after.id)).not.toHaveProperty('handedOver');
	expect(delivered('chat.handed_over')).toEqual([handed]);
	expect(delivered('chat.handed_back')).toEqual([{ ...back, reason: 'api' }]);
});

it('an answer from the business phone hands over; the instance’s quiet period from its last one gives back once', async () => {
	const other = '+14155550124';
	await write('Is my order ready?', other);
	const settings = await suite.clients.workspace.instances.update({
		instanceId,
		body: { handOverQuietMinutes: 5 },
	});
	expect(settings.settings).toMatchObject({ handOverQuietMinutes: 5 });

	const answered = await sandboxCall(`/chats/${other}/answer-as-business`, {
		text: 'Yes, come by',
	});
	expect(answered.status).toBe(201);
	const sent = await messageEvent('message.sent', (answered.body as { id: string }).id);
	expect(sent).toMatchObject({ fromBusinessPhone: true, handedOver: true, direction: 'outbound' });
	const firstAt = clock;
	expect(delivered('chat.handed_over').at(-1)).toMatchObject({
		chatId: '14155550124@s.whatsapp.net',
		by: 'business_phone',
		since: at(firstAt),
		givesBackAt: at(firstAt + 5 * MINUTE),
	});

	clock += 4 * MINUTE;
	await sandboxCall(`/chats/${other}/answer-as-business`, { text: 'We close at 6' });
	const state = await chats().get({ instanceId, chatId: other });
	expect(state.handOver).toMatchObject({ since: at(firstAt), givesBackAt: at(clock + 5 * MINUTE) });
	expect(delivered('chat.handed_over')).toHaveLength(2);

	clock += 4 * MINUTE;
	await write('ok', other);
	expect((await chats().get({ instanceId, chatId: other })).handOver?.handedOver).toBe(true);
	clock += 2 * MINUTE;
	await waitFor(() => delivered('chat.handed_back').length === 2, 5000, 'the quiet period');
	expect(delivered('chat.handed_back')[1]).toMatchObject({
		chatId: '14155550124@s.whatsapp.net',
		handedOver: false,
		reason: 'quiet_period',
	});
	await sleep(100);
	expect(delivered('chat.handed_back')).toHaveLength(2);
});

it('brings a give-back due now; gathering does not hold a handed-over chat and releases a burst it held', async () => {
	const gathering = await suite.clients.workspace.webhooks.create({
		body: {
			url: `${suite.receiver.url}/gather`,
			events: ['message.received'],
			gather: { quietSeconds: 60, maxWaitSeconds: 300 },
		},
	});
	suite.receiver.secrets.push(gathering.secret);
	const person = '+14155550125';
	// The business may write first from its phone: a chat that did not exist is handed over too.
	const first = await sandboxCall('/chats/+14155550126/answer-as-business', {
		text: 'Your order is in',
	});
	expect(first.status).toBe(201);
	expect((await chats().get({ instanceId, chatId: '+14155550126' })).handOver).toMatchObject({
		handedOver: true,
		by: 'business_phone',
	});
	expect((await sandboxCall('/chats/hello/answer-as-business', { text: 'Hi' })).status).toBe(400);
	const gathered = () => suite.receiver.received.filter((delivery) => delivery.path === '/gather');
	const held = await write('Hi', person);
	await messageEvent('message.received', held.id);
	expect(gathered()).toHaveLength(0);

	await chats().handOver({ instanceId, chatId: person });
	await waitFor(() => gathered().length === 1, 5000, 'the burst released at the hand-over');
	expect(gathered()[0].event.data).toMatchObject({ gathered: true, handedOver: true, count: 1 });
	const alone = await write('Anyone there?', person);
	await waitFor(() => gathered().length === 2, 5000, 'a handed-over message not held');
	expect(gathered()[1].event.data).toMatchObject({ id: alone.id, handedOver: true });

	const due = await sandboxCall(`/chats/${person}/give-back-due-now`);
	expect(due.body).toMatchObject({ handedOver: true, givesBackAt: at(clock) });
	await waitFor(
		() =>
			delivered('chat.handed_back').some((data) => data.chatId === '14155550125@s.whatsapp.net'),
		5000,
		'the give-back due now',
	);
	expect((await chats().get({ instanceId, chatId: person })).handOver?.handedOver).toBe(false);
});
