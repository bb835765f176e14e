/**
 * A chat's history and the Chat resource of the Multichannel node, run as real workflows through n8n-core against
 * the sandbox on loopback: Message → Get Many (order, direction, since/until, Simplify, the chat from a trigger's
 * output, as an AI tool with $fromAI), Message → Get simplified alike, Chat → Get Many / Get / Mark All as Read,
 * and the chat picker's search.
 * The exact requests are pinned with nock in chat-wire.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import { runListSearch, runNode } from '../../dev/harness';
import { raw } from '../support/sandbox';
import {
	byId,
	expectNoSecrets,
	failure,
	multichannelNode,
	NODE_NAME,
	registerToolVariant,
	startService,
	type TestService,
} from '../support/nodes';

const START = Date.parse('2026-11-24T09:00:00.000Z');
const at = (seconds: number) => new Date(START + seconds * 1000).toISOString();
const ana = '+14155550301';
const ben = '+14155550302';
const anaChat = '14155550301@s.whatsapp.net';
const benChat = '14155550302@s.whatsapp.net';

let clock = START;
let service: TestService;
let instanceId: string;
const ids: Record<string, string> = {};

/** One second passes before each message. */
const tick = () => (clock += 1000);

beforeAll(async () => {
	service = await startService({ now: () => clock });
	instanceId = (await service.connectedInstance('Chats', '+14155550300')).id;
	const { client } = service;
	await client.contacts.create({ instanceId, body: { phoneNumber: ana, name: 'Ana Lima' } });
	// Ana's chat, one message a second from t+1: hello (sent), a text in, an image in, buttons sent, a tap on them.
	tick();
	ids.hello = (
		await client.messages.sendText({ instanceId, body: { to: ana, text: 'Hi Ana' } })
	).id;
	tick();
	ids.ordered = (await service.inbound(instanceId, ana, 'I ordered yesterday')).id;
	tick();
	const image = await raw(
		service.sandbox.baseUrl,
		'POST',
		`/sandbox/instances/${instanceId}/inbound/media`,
		{ key: service.apiKey, body: { from: ana, sample: 'image', caption: 'the box' } },
	);
	ids.image = (image.body as { id: string }).id;
	tick();
	ids.buttons = (
		await client.messages.sendButtons({
			instanceId,
			body: {
				to: ana,
				text: 'Is it this one?',
				buttons: [
					{ id: 'yes', title: 'Yes' },
					{ id: 'no', title: 'No' },
				],
			},
		})
	).id;
	tick();
	ids.tap = (await service.tap(instanceId, ids.buttons, 'yes')).id;
	// Ben's chat, t+6.
	tick();
	ids.ben = (await service.inbound(instanceId, ben, 'Hello from Ben')).id;
});
afterAll(async () => await service?.close());

const run = async (
	resource: string,
	parameters: IDataObject,
	items?: IDataObject[],
	type?: string,
) =>
	await runNode(
		multichannelNode(
			resource,
			{ instanceId: byId(instanceId), ...parameters },
			type ? { type } : {},
		),
		{ credentials: service.credentials, items },
	);
const history = (parameters: IDataObject, items?: IDataObject[], type?: string) =>
	run('message', { operation: 'getAll', chatId: byId(anaChat), ...parameters }, items, type);
const idsOf = (items: IDataObject[]) => items.map((item) => item.id);

describe('Message → Get Many (a chat’s history)', () => {
	test('Simplify (default): who, when, which way, kind, text, tap and file in words; newest first, limited', async () => {
		const result = await history({ limit: 3 });

		expect(result.error).toBeUndefined();
		expect(result.json(NODE_NAME)).toEqual([
			{
				id: ids.tap,
				from: ana,
				direction: 'inbound',
				type: 'reply',
				text: 'Yes',
				reply: { id: 'yes', title: 'Yes' },
				createdAt: at(5),
			},
			{
				id: ids.buttons,
				from: '+14155550300',
				direction: 'outbound',
				type: 'buttons',
				text: 'Is it this one? [buttons: Yes / No]',
				createdAt: at(4),
			},
			{
				id: ids.image,
				from: ana,
				direction: 'inbound',
				type: 'image',
				text: 'the box',
				media: 'image "sample-image.png" (image/png, 11.0 KB)',
				createdAt: at(3),
			},
		]);
		expect(result.output(NODE_NAME).every((item) => item.binary === undefined)).toBe(true);
		expectNoSecrets(result, [service.apiKey]);
	});

	test('Oldest first, Return All; direction; since (at or after) and until (before); Simplify off', async () => {
		const oldest = await history({ returnAll: true, order: 'oldest' });
		const received = await history({ returnAll: true, direction: 'inbound' });
		const sent = await history({ returnAll: true, direction: 'outbound', order: 'oldest' });
		const window = await history({
			returnAll: true,
			order: 'oldest',
			filters: { since: at(2), until: at(4) },
		});
		const full = await history({ limit: 1, simplify: false });

		expect(idsOf(oldest.json(NODE_NAME))).toEqual([
			ids.hello,
			ids.ordered,
			ids.image,
			ids.buttons,
			ids.tap,
		]);
		expect(idsOf(received.json(NODE_NAME))).toEqual([ids.tap, ids.image, ids.ordered]);
		expect(idsOf(sent.json(NODE_NAME))).toEqual([ids.hello, ids.buttons]);
		expect(idsOf(window.json(NODE_NAME))).toEqual([ids.ordered, ids.image]);
		expect(full.json(NODE_NAME)).toEqual([
			expect.objectContaining({
				id: ids.tap,
				chatId: anaChat,
				status: 'delivered',
				content: expect.any(Object),
				reply: expect.objectContaining({ toMessageId: ids.buttons }),
			}),
		]);
	});

	test('the chat and instance from a trigger’s output, one history per item', async () => {
		const result = await run(
			'message',
			{
				operation: 'getAll',
				instanceId: byId('={{ $json.data.instanceId }}'),
				chatId: byId('={{ $json.data.chatId }}'),
				limit: 1,
			},
			[{ data: { instanceId, chatId: benChat } }, { data: { instanceId, chatId: anaChat } }],
		);

		expect(result.error).toBeUndefined();
		expect(result.output(NODE_NAME).map((item) => [item.json.id, item.pairedItem])).toEqual([
			[ids.ben, { item: 0 }],
			[ids.tap, { item: 1 }],
		]);
	});

	test('as an AI tool: chat, limit and direction from $fromAI; a file comes as its description', async () => {
		const { type } = await registerToolVariant();

		const result = await history(
			{
				chatId: byId("={{ $fromAI('chatId', 'The chat ID', 'string') }}"),
				limit: "={{ $fromAI('limit', 'How many messages', 'number') }}",
				direction: "={{ $fromAI('direction', 'in, out or both', 'string') }}",
			},
			[{ chatId: anaChat, limit: 2, direction: 'in' }],
			type,
		);

		expect(result.error).toBeUndefined();
		expect(result.output(NODE_NAME).map((item) => [item.json.id, item.binary])).toEqual([
			[ids.tap, undefined],
			[ids.image, undefined],
		]);
		expect(result.json(NODE_NAME)[1].media).toMatch(/^image "sample-image.png"/);
	});

	test('Message → Get simplifies a message as Get Many does, with where it is and its status', async () => {
		const got = async (messageId: string) =>
			(await run('message', { operation: 'get', messageId })).json(NODE_NAME)[0];
		const [, buttonsInHistory, imageInHistory] = (await history({ limit: 3 })).json(NODE_NAME);

		expect(await got(ids.image)).toEqual({
			...imageInHistory,
			instanceId,
			chatId: anaChat,
			to: '+14155550300',
			status: 'delivered',
		});
		expect(await got(ids.buttons)).toEqual({
			...buttonsInHistory,
			instanceId,
			chatId: anaChat,
			to: ana,
			status: expect.any(String),
		});
	});

	test('an until before since, a direction it does not know: errors naming the field and the item', async () => {
		const backwards = await history({ filters: { since: at(4), until: at(2) } });
		const sideways = await history({ direction: '={{ "sideways" }}' });

		expect(failure(backwards)).toMatchObject({ name: 'NodeOperationError' });
		expect(backwards.error?.message).toMatch(/Until/);
		expect(JSON.stringify(failure(backwards))).toContain('must be later than since');
		expect(sideways.error?.message).toMatch(/Direction/);
		expect(sideways.error?.message).toContain('[item 0]');
	});
});

describe('Chat', () => {
	test('Get Many (simplified): the most recently active first, names, unread counts, last message; search', async () => {
		const all = await run('chat', { operation: 'getAll', returnAll: true });
		const byName = await run('chat', {
			operation: 'getAll',
			limit: 5,
			filters: { search: 'lima' },
		});
		const byNumber = await run('chat', {
			operation: 'getAll',
			limit: 5,
			filters: { search: '+1 (415) 555-0302' },
		});

		expect(all.json(NODE_NAME)).toEqual([
			{
				id: benChat,
				instanceId,
				phoneNumber: ben,
				isGroup: false,
				unreadCount: 1,
				// Labels come with every chat (Label → Add to Chat); none here.
				labels: [],
				lastMessageAt: at(6),
				lastMessage: {
					id: ids.ben,
					from: ben,
					direction: 'inbound',
					type: 'text',
					text: 'Hello from Ben',
					createdAt: at(6),
				},
			},
			expect.objectContaining({ id: anaChat, name: 'Ana Lima', unreadCount: 3 }),
		]);
		expect(idsOf(byName.json(NODE_NAME))).toEqual([anaChat]);
		expect(idsOf(byNumber.json(NODE_NAME))).toEqual([benChat]);
	});

	test('Get Many: Return All follows the cursors across pages; Limit stops early', async () => {
		const other = await service.connectedInstance('Many chats');
		for (let index = 0; index < 105; index++) {
			await service.inbound(other.id, `+1415556${String(1000 + index)}`, `n${index}`);
		}
		const onOther = (parameters: IDataObject) =>
			runNode(multichannelNode('chat', { instanceId: byId(other.id), ...parameters }), {
				credentials: service.credentials,
			});

		const all = await onOther({ operation: 'getAll', returnAll: true });
		const limited = await onOther({ operation: 'getAll', limit: 7 });

		expect(all.json(NODE_NAME)).toHaveLength(105);
		expect(new Set(idsOf(all.json(NODE_NAME))).size).toBe(105);
		expect(limited.json(NODE_NAME)).toHaveLength(7);
	});

	test('Get, by ID and from the list search; Simplify off gives the whole chat', async () => {
		const search = await runListSearch(
			{
				...multichannelNode('chat', { operation: 'get', instanceId: byId(instanceId) }),
				method: 'searchChats',
				filter: 'Lima',
			},
			{ credentials: service.credentials },
		);
		const got = await run('chat', { operation: 'get', chatId: byId(anaChat), simplify: false });

		expect(search.results).toEqual([{ name: `Ana Lima (${ana})`, value: anaChat }]);
		expect(got.json(NODE_NAME)).toEqual([
			expect.objectContaining({
				id: anaChat,
				name: 'Ana Lima',
				unreadCount: 3,
				lastMessage: expect.objectContaining({ id: ids.tap, content: expect.any(Object) }),
			}),
		]);
	});

	test('Mark All as Read: every received message of the chat is read; again marks none; an unknown chat is an error', async () => {
		const marked = await run('chat', { operation: 'markRead', chatId: byId(anaChat) });
		const again = await run('chat', { operation: 'markRead', chatId: byId(anaChat) });
		const unknown = await run('chat', {
			operation: 'get',
			chatId: byId('14155559999@s.whatsapp.net'),
		});

		expect(marked.json(NODE_NAME)).toEqual([
			expect.objectContaining({ id: anaChat, unreadCount: 0, markedRead: 3 }),
		]);
		for (const id of [ids.ordered, ids.image, ids.tap]) {
			expect(service.sandbox.store.get('messages', id)?.status).toBe('read');
		}
		expect(service.sandbox.store.get('messages', ids.ben)?.status).toBe('delivered');
		expect(again.json(NODE_NAME)[0]).toMatchObject({ markedRead: 0 });
		expect(failure(unknown)).toMatchObject({ name: 'NodeApiError', httpCode: '404' });
	});

	test('Hand Over to a Person, then Give Back: the chat’s hand-over, each change once', async () => {
		const events = () =>
			service.sandbox.events.filter((event) => event.type.startsWith('chat.hand'));
		const handed = await run('chat', { operation: 'handOver', chatId: byId(ben) });
		const again = await run('chat', { operation: 'handOver', chatId: byId(benChat) });
		const back = await run('chat', { operation: 'giveBack', chatId: byId(benChat) });

		expect(handed.json(NODE_NAME)).toEqual([
			expect.objectContaining({ chatId: benChat, handedOver: true, by: 'api', since: at(6) }),
		]);
		expect(again.json(NODE_NAME)).toEqual(handed.json(NODE_NAME));
		expect(back.json(NODE_NAME)[0]).toMatchObject({ handedOver: false, by: null });
		expect(events().map((event) => event.type)).toEqual(['chat.handed_over', 'chat.handed_back']);
	});
});
