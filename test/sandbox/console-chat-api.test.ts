/**
 * The console phone's endpoint (`GET /user/api/instances/{id}/chat?with=…`) and a contact's quote
 * (`quotedMessageId` of the sandbox-only inbound endpoints), over HTTP. The page: console-chat.test.ts.
 */
import { CHAT_VIEW_MESSAGES } from '../../sandbox/console/chat';
import type { ChatView } from '../../sandbox/console/views';
import type { Sandbox } from '../../sandbox/server';
import {
	clientsFor,
	connectedInstance,
	raw,
	startTestSandbox,
	type SandboxKeys,
} from '../support/sandbox';

describe('console: the chat view endpoint, and quotes', () => {
	let sandbox: Sandbox;
	let keys: SandboxKeys;
	let instanceId: string;
	const contact = '+14155550191';
	const other = '+14155550192';

	beforeAll(async () => {
		sandbox = await startTestSandbox();
		keys = sandbox.keys as SandboxKeys;
		instanceId = (await connectedInstance(sandbox, 'Chat view', '+14155550190')).id;
	});
	afterAll(() => sandbox.close());

	const view = (key: string, query: string, id = instanceId) =>
		raw(sandbox.baseUrl, 'GET', `/user/api/instances/${id}/chat${query}`, { key });
	const inbound = (body: Record<string, unknown>) =>
		raw(sandbox.baseUrl, 'POST', `/sandbox/instances/${instanceId}/inbound`, {
			key: keys.workspace,
			body,
		});

	it('shows one chat, both ways, oldest first, and the typing indicator while it shows', async () => {
		const client = clientsFor(sandbox.baseUrl, keys).workspace;
		await inbound({ from: contact, text: 'First' });
		await inbound({ from: other, text: 'Another chat' });
		await client.messages.sendTyping({ instanceId, body: { to: contact, seconds: 25 } });
		const typing = (await view(keys.workspace, `?with=${encodeURIComponent(contact)}`))
			.body as ChatView;
		expect(typing.typing).toMatchObject({ state: 'composing' });
		expect(typing.messages.map((message) => message.content.text)).toEqual(['First']);

		await client.messages.sendText({ instanceId, body: { to: contact, text: 'Second' } });
		const answered = (await view(keys.workspace, `?with=${encodeURIComponent(contact)}`))
			.body as ChatView;
		expect(answered).toMatchObject({ chatId: '14155550191@s.whatsapp.net', typing: null });
		expect(answered.messages.map((message) => [message.direction, message.content.text])).toEqual([
			['inbound', 'First'],
			['outbound', 'Second'],
		]);
	});

	it('plays a contact who hides their number: @username writes, and the answer to its contact id shows', async () => {
		const client = clientsFor(sandbox.baseUrl, keys).workspace;
		const before = (await view(keys.workspace, '?with=%40ana.hidden')).body as ChatView;
		expect(before.messages).toEqual([]);
		const written = (await inbound({ from: '@ana.hidden', text: 'Where is my parcel?' })).body as {
			from: string;
			chatId: string;
		};
		await client.messages.sendText({ instanceId, body: { to: written.from, text: 'On its way' } });
		const shown = (await view(keys.workspace, '?with=%40ana.hidden')).body as ChatView;
		expect(shown).toMatchObject({ chatId: written.chatId, you: written.from });
		expect(shown.messages.map((message) => [message.from, message.content.text])).toEqual([
			[written.from, 'Where is my parcel?'],
			['+14155550190', 'On its way'],
		]);
	});

	it('answers the latest messages only, and polling it leaves the key’s last use alone', async () => {
		const talker = '+14155550193';
		for (let index = 0; index < CHAT_VIEW_MESSAGES + 5; index++) {
			sandbox.store.insert('messages', {
				...sandbox.store.all('messages')[0],
				id: `msg_view${String(index).padStart(8, '0')}`,
				from: talker,
				chatId: '14155550193@s.whatsapp.net',
				content: { text: `#${index}` },
			});
		}
		const key = sandbox.store.all('keys').find((record) => record.kind === 'workspace');
		const lastUsed = key?.lastUsedAt;
		const shown = (await view(keys.workspace, `?with=${encodeURIComponent(talker)}`))
			.body as ChatView;
		expect(shown.messages).toHaveLength(CHAT_VIEW_MESSAGES);
		expect(shown.messages[0].content.text).toBe('#5');
		expect(shown.messages.at(-1)?.content.text).toBe(`#${CHAT_VIEW_MESSAGES + 4}`);
		expect(key?.lastUsedAt).toBe(lastUsed);
	});

	it('names what is wrong: the chat, the instance, the key', async () => {
		const bad = await view(keys.workspace, '?with=4155550191');
		expect(bad.status).toBe(400);
		expect(JSON.stringify(bad.body)).toContain('query.with');
		expect(
			(await view(keys.workspace, `?with=${encodeURIComponent(contact)}`, 'inst_unknown0000'))
				.status,
		).toBe(404);
		expect((await view(keys.shortLink, `?with=${encodeURIComponent(contact)}`)).status).toBe(403);
	});

	it('takes a contact’s quote of a message of its chat, and refuses one of another chat', async () => {
		const [asked] = sandbox.store.all('messages', (message) => message.content.text === 'Second');
		const quoted = await inbound({ from: contact, text: 'Yes', quotedMessageId: asked.id });
		expect(quoted.status).toBe(201);
		expect(quoted.body).toMatchObject({ content: { text: 'Yes', quotedMessageId: asked.id } });

		const elsewhere = await inbound({ from: other, text: 'Me too', quotedMessageId: asked.id });
		expect(elsewhere.status).toBe(400);
		expect(elsewhere.body).toMatchObject({
			error: { details: [{ field: 'body.quotedMessageId' }] },
		});
		const media = await raw(
			sandbox.baseUrl,
			'POST',
			`/sandbox/instances/${instanceId}/inbound/media`,
			{
				key: keys.workspace,
				body: { from: contact, sample: 'pdf', quotedMessageId: asked.id },
			},
		);
		expect(media.body).toMatchObject({ type: 'document', content: { quotedMessageId: asked.id } });
	});
});
