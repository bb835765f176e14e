import type { Sandbox } from '../../sandbox/server';
import {
	clientsFor,
	connectedInstance,
	raw,
	startTestSandbox,
	type SandboxKeys,
} from '../support/sandbox';

/**
 * Chats in the sandbox: derived from an instance's messages (sent and received), named by contact or group,
 * most recently active first, searchable by name or number, paged by cursor; marking a chat read marks its
 * received messages read as marking each one does. The message list of a chat: direction, since/until, order.
 * Hostile input is a 400 naming the field (or a 404), never a 5xx.
 */

const START = Date.parse('2026-11-24T10:00:00.000Z');
const at = (seconds: number) => new Date(START + seconds * 1000).toISOString();

describe('chats', () => {
	let sandbox: Sandbox;
	let keys: SandboxKeys;
	let clock = START;
	let client: ReturnType<typeof clientsFor>['workspace'];
	let instanceId: string;
	let groupId: string;
	const ana = '+14155550201';
	const ben = '+14155550202';
	const ids: Record<string, string> = {};

	/** A contact writes in, one second after the last message. */
	const inbound = async (from: string, text: string, groupIdOf?: string) => {
		clock += 1000;
		const answer = await raw(sandbox.baseUrl, 'POST', `/sandbox/instances/${instanceId}/inbound`, {
			key: keys.workspace,
			body: { from, text, ...(groupIdOf ? { groupId: groupIdOf } : {}) },
		});
		expect(answer.status).toBe(201);
		return (answer.body as { id: string }).id;
	};
	const get = (path: string) =>
		raw(sandbox.baseUrl, 'GET', `/api/v1/instances/${instanceId}${path}`, { key: keys.workspace });
	/** The fields a 400 names, each once (a date can break two of its rules). */
	const fieldsOf = (body: unknown) => [
		...new Set(
			(body as { error: { details: Array<{ field: string }> } }).error.details.map(
				(detail) => detail.field,
			),
		),
	];

	beforeAll(async () => {
		sandbox = await startTestSandbox({ now: () => clock, rateLimit: false });
		keys = sandbox.keys as SandboxKeys;
		client = clientsFor(sandbox.baseUrl, keys).workspace;
		instanceId = (await connectedInstance(sandbox, 'Chats', '+14155550200')).id;
		await client.contacts.create({ instanceId, body: { phoneNumber: ana, name: 'Ana Lima' } });
		groupId = (
			await client.groups.create({
				instanceId,
				body: { subject: 'Book club', participants: [ana, ben] },
			})
		).id;
		// Ana: hello (out, t+1), two messages in (t+2, t+3); Ben: one in (t+4); the group: one in (t+5).
		clock += 1000;
		ids.hello = (
			await client.messages.sendText({ instanceId, body: { to: ana, text: 'Hi Ana' } })
		).id;
		ids.ana1 = await inbound(ana, 'I ordered yesterday');
		ids.ana2 = await inbound(ana, 'Where is it?');
		ids.ben1 = await inbound(ben, 'Hello from Ben');
		ids.group1 = await inbound(ben, 'Meeting at 8', groupId);
	});
	afterAll(async () => await sandbox?.close());

	const anaChat = '14155550201@s.whatsapp.net';

	it('lists the chats, most recently active first, with name, group flag, last message and unread count', async () => {
		const page = await client.chats.list({ instanceId });

		expect(page.nextCursor).toBeNull();
		expect(
			page.data.map((chat) => [
				chat.id,
				chat.name,
				chat.phoneNumber,
				chat.isGroup,
				chat.unreadCount,
				chat.lastMessage?.id,
				chat.lastMessageAt,
			]),
		).toEqual([
			[groupId, 'Book club', null, true, 1, ids.group1, at(5)],
			['14155550202@s.whatsapp.net', null, ben, false, 1, ids.ben1, at(4)],
			[anaChat, 'Ana Lima', ana, false, 2, ids.ana2, at(3)],
		]);
	});

	it('searches by name, by number as people type it, by chat id; pages by cursor', async () => {
		const names = async (search: string) =>
			(await client.chats.list({ instanceId, query: { search } })).data.map((chat) => chat.id);

		expect(await names('ana l')).toEqual([anaChat]);
		expect(await names('BOOK')).toEqual([groupId]);
		expect(await names('+1 (415) 555-0202')).toEqual(['14155550202@s.whatsapp.net']);
		expect(await names('415 555')).toEqual(['14155550202@s.whatsapp.net', anaChat]);
		expect(await names('nobody')).toEqual([]);

		const first = await client.chats.list({ instanceId, query: { limit: 2 } });
		const second = await client.chats.list({
			instanceId,
			query: { limit: 2, cursor: first.nextCursor ?? '' },
		});
		expect([...first.data, ...second.data].map((chat) => chat.id)).toEqual([
			groupId,
			'14155550202@s.whatsapp.net',
			anaChat,
		]);
		expect(second.nextCursor).toBeNull();
	});

	it('gets one chat; an unknown chat or one of another instance is a 404', async () => {
		expect(await client.chats.get({ instanceId, chatId: anaChat })).toMatchObject({
			id: anaChat,
			name: 'Ana Lima',
			unreadCount: 2,
			lastMessage: { id: ids.ana2, direction: 'inbound', content: { text: 'Where is it?' } },
		});
		expect((await get('/chats/14155559999@s.whatsapp.net')).status).toBe(404);
		const other = await connectedInstance(sandbox, 'Other', '+14155550299');
		const elsewhere = await raw(
			sandbox.baseUrl,
			'GET',
			`/api/v1/instances/${other.id}/chats/${encodeURIComponent(anaChat)}`,
			{ key: keys.workspace },
		);
		expect(elsewhere.status).toBe(404);
	});

	it('the message list of a chat: direction, since (at or after), until (before), oldest or newest first', async () => {
		const list = async (query: Record<string, unknown>) =>
			(await client.messages.list({ instanceId, query: { chatId: anaChat, ...query } })).data.map(
				(message) => message.id,
			);

		expect(await list({})).toEqual([ids.ana2, ids.ana1, ids.hello]);
		expect(await list({ order: 'oldest' })).toEqual([ids.hello, ids.ana1, ids.ana2]);
		expect(await list({ order: 'newest' })).toEqual([ids.ana2, ids.ana1, ids.hello]);
		expect(await list({ direction: 'inbound' })).toEqual([ids.ana2, ids.ana1]);
		expect(await list({ direction: 'outbound' })).toEqual([ids.hello]);
		expect(await list({ since: at(2) })).toEqual([ids.ana2, ids.ana1]);
		expect(await list({ until: at(2) })).toEqual([ids.hello]);
		expect(await list({ since: at(2), until: at(3), order: 'oldest' })).toEqual([ids.ana1]);
		// The same instant with an offset.
		expect(await list({ since: '2026-11-24T11:00:03+01:00' })).toEqual([ids.ana2]);

		const oldestFirst = await client.messages.list({
			instanceId,
			query: { chatId: anaChat, order: 'oldest', limit: 2 },
		});
		const rest = await client.messages.list({
			instanceId,
			query: { chatId: anaChat, order: 'oldest', limit: 2, cursor: oldestFirst.nextCursor ?? '' },
		});
		expect([...oldestFirst.data, ...rest.data].map((message) => message.id)).toEqual([
			ids.hello,
			ids.ana1,
			ids.ana2,
		]);
	});

	it('marks a whole chat read as marking each message does (status read, no event); again marks none', async () => {
		const eventsBefore = sandbox.events.length;

		const read = await client.chats.markRead({ instanceId, chatId: anaChat });

		expect(read).toMatchObject({ id: anaChat, unreadCount: 0, markedRead: 2 });
		expect(sandbox.store.get('messages', ids.ana1)?.status).toBe('read');
		expect(sandbox.store.get('messages', ids.ana2)?.status).toBe('read');
		expect(sandbox.store.get('messages', ids.ben1)?.status).toBe('delivered');
		expect(sandbox.events.length).toBe(eventsBefore);
		expect((await client.chats.get({ instanceId, chatId: anaChat })).unreadCount).toBe(0);
		expect(await client.chats.markRead({ instanceId, chatId: anaChat })).toMatchObject({
			markedRead: 0,
		});
		// A message read one at a time counts as read for its chat too.
		await client.messages.markRead({ instanceId, messageId: ids.ben1 });
		const benChat = await client.chats.get({ instanceId, chatId: '14155550202@s.whatsapp.net' });
		expect(benChat.unreadCount).toBe(0);
	});

	it('refuses hostile input naming the field, never with a 5xx', async () => {
		const cases: Array<[string, number, string[]]> = [
			[`/chats?search=${'x'.repeat(201)}`, 400, ['query.search']],
			['/chats?limit=0', 400, ['query.limit']],
			['/chats?unknown=1', 400, ['query']],
			['/chats?cursor=bm90IGEgY3Vyc29y', 400, ['query.cursor']],
			[`/chats/${'c'.repeat(201)}`, 400, ['chatId']],
			[`/messages?until=${at(1)}&since=${at(2)}`, 400, ['query.until']],
			[`/messages?since=${at(2)}&until=${at(2)}`, 400, ['query.until']],
			['/messages?since=yesterday', 400, ['query.since']],
			['/messages?order=random', 400, ['query.order']],
			['/messages?direction=both', 400, ['query.direction']],
			[`/messages?chatId=${'c'.repeat(201)}`, 400, ['query.chatId']],
		];
		for (const [path, status, fields] of cases) {
			const answer = await get(path);
			expect([path, answer.status, fieldsOf(answer.body)]).toEqual([path, status, fields]);
		}
		for (const chatId of ['..%2F..%2Fx', '%00', '%E2%80%AE', 'a%40g.us']) {
			const answer = await get(`/chats/${chatId}`);
			expect([chatId, answer.status]).toEqual([chatId, 404]);
			const marked = await raw(
				sandbox.baseUrl,
				'POST',
				`/api/v1/instances/${instanceId}/chats/${chatId}/read`,
				{ key: keys.workspace },
			);
			expect([chatId, marked.status]).toEqual([chatId, 404]);
		}
		// A search made of regex and number characters matches as text, not as a pattern.
		expect((await get('/chats?search=.*%2B()')).body).toEqual({ data: [], nextCursor: null });
	});
});
