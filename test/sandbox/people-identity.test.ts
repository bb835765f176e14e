import type { Sandbox } from '../../sandbox/server';
import { connectedInstance, raw, startTestSandbox, type SandboxKeys } from '../support/sandbox';

/**
 * A contact who hides their number (the contract, 2026-11-28 "people"): they write as `@username`, and the
 * received message names them by their contact id (`from`), their username and their `…@lid` chat; no `phone`.
 * The business answers them by contact id, `@username` or chat id, and the answer lands in that chat, its `to` their
 * contact id (as a received message's `from`), and so does a scheduled send; their tap comes from that contact id.
 * Their chat and history are found by those names too, and Send and Wait's allowed answerers take them. An unknown
 * contact id or username is 404 naming the field, never a guess. A contact with a number keeps `from` as the number, with
 * `phone` beside it.
 */

const NOW = Date.parse('2026-11-29T09:00:00.000Z');
const inAMinute = new Date(NOW + 60_000).toISOString();

describe('people without a visible number', () => {
	let sandbox: Sandbox;
	let keys: SandboxKeys;
	let instanceId: string;
	let otherInstanceId: string;

	const call = (method: string, path: string, body?: unknown) =>
		raw(sandbox.baseUrl, method, path, { key: keys.workspace, body });
	const api = (method: string, path: string, body?: unknown) =>
		call(method, `/api/v1/instances/${instanceId}${path}`, body);
	const write = (from: string, text: string, onInstance = instanceId) =>
		call('POST', `/sandbox/instances/${onInstance}/inbound`, { from, text });
	const detailsOf = (body: unknown) =>
		(body as { error: { code: string; details: Array<{ field: string }> } }).error;

	beforeAll(async () => {
		sandbox = await startTestSandbox({ now: () => NOW, rateLimit: false });
		keys = sandbox.keys as SandboxKeys;
		instanceId = (await connectedInstance(sandbox, 'People', '+14155550300')).id;
		otherInstanceId = (await connectedInstance(sandbox, 'Other', '+14155550400')).id;
	});
	afterAll(async () => await sandbox?.close());

	it('names a hidden number by contact id, username and @lid chat, and answers land in that chat', async () => {
		const first = await write('@Maria.Lopez', 'Hi, is my order ready?');
		expect(first.status).toBe(201);
		const received = first.body as Record<string, string>;
		expect(received.from).toMatch(/^ct_[0-9a-f]+$/);
		expect(received.username).toBe('Maria.Lopez');
		expect(received).not.toHaveProperty('phone');
		expect(received.chatId).toMatch(/^[1-9][0-9]{14}@lid$/);
		const contactId = received.from;

		// Writing again is the same person, in the same chat (a username matches ignoring case).
		const again = (await write('@maria.lopez', 'Hello?')).body as Record<string, string>;
		expect([again.from, again.chatId]).toEqual([contactId, received.chatId]);

		const contact = await api('GET', `/contacts/${contactId}`);
		expect(contact.body).toMatchObject({
			id: contactId,
			phoneNumber: null,
			username: 'Maria.Lopez',
			chatId: received.chatId,
		});
		expect((await api('GET', '/contacts/%40maria.lopez')).body).toMatchObject({ id: contactId });

		for (const to of [contactId, '@maria.lopez', received.chatId]) {
			const sent = await api('POST', '/messages/text', { to, text: `Yes, to ${to}` });
			expect(sent.status).toBe(201);
			// `to` names them as a received message's `from` does, so a reply matches what was sent.
			expect(sent.body).toMatchObject({ chatId: received.chatId, to: contactId });
		}
		const later = await api('POST', '/messages/text', {
			to: '@maria.lopez',
			text: 'Later',
			sendAt: inAMinute,
		});
		expect(later.body).toMatchObject({ status: 'scheduled', to: contactId });

		const history = await api('GET', `/messages?chatId=${encodeURIComponent('@Maria.Lopez')}`);
		expect((history.body as { data: unknown[] }).data).toHaveLength(5);
		const chat = await api('GET', `/chats/${contactId}`);
		expect(chat.body).toMatchObject({
			id: received.chatId,
			phoneNumber: null,
			username: 'Maria.Lopez',
		});
		const found = await api('GET', '/chats?search=%40maria');
		expect((found.body as { data: Array<{ id: string }> }).data.map(({ id }) => id)).toEqual([
			received.chatId,
		]);

		// Their tap on what was sent to them comes from them, by their contact id, in their chat.
		const question = await api('POST', '/messages/buttons', {
			to: contactId,
			text: 'Pick up or delivery?',
			buttons: [{ id: 'pickup', title: 'Pick up' }],
		});
		const { id: questionId } = question.body as { id: string };
		const tap = await call('POST', `/sandbox/instances/${instanceId}/messages/${questionId}/tap`, {
			id: 'pickup',
		});
		expect(tap.body).toMatchObject({ from: contactId, chatId: received.chatId });
	});

	it('refuses an unknown contact id or username with 404 naming the field, sending nothing', async () => {
		await write('@only.elsewhere', 'Hi', otherInstanceId);
		const count = async () =>
			((await api('GET', '/messages?limit=100')).body as { data: [] }).data.length;
		const before = await count();
		const cases: Array<[string, string, unknown, string]> = [
			['POST', '/messages/text', { to: '@nobody.here', text: 'Hi' }, 'body.to'],
			['POST', '/messages/text', { to: 'ct_0123456789abcdef', text: 'Hi' }, 'body.to'],
			['POST', '/messages/text', { to: '@only.elsewhere', text: 'Hi' }, 'body.to'],
			['POST', '/messages/text', { to: '123456789012345@lid', text: 'Hi' }, 'body.to'],
			['GET', '/messages?chatId=%40nobody.here', undefined, 'query.chatId'],
		];
		for (const [method, path, body, field] of cases) {
			const answer = await api(method, path, body);
			expect([answer.status, detailsOf(answer.body).code]).toEqual([404, 'contact_not_found']);
			expect(detailsOf(answer.body).details.map((detail) => detail.field)).toEqual([field]);
		}
		expect(await count()).toBe(before);
		const answer = await api('POST', '/answers', {
			to: '@maria.lopez',
			accepts: ['text'],
			url: 'http://127.0.0.1:9/answer',
			secret: 's'.repeat(32),
			expiresAt: inAMinute,
			allowedToAnswer: ['+14155550301', '@nobody.here'],
		});
		expect([answer.status, detailsOf(answer.body).details[0].field]).toEqual([
			404,
			'body.allowedToAnswer[1]',
		]);
	});

	it('gives a contact with a number `from` and `phone` as the number, and `username` when known', async () => {
		const plain = (await write('+14155550301', 'Hi')).body as Record<string, string>;
		expect(plain).toMatchObject({ from: '+14155550301', phone: '+14155550301' });
		expect(plain).not.toHaveProperty('username');
		expect(plain.chatId).toBe('14155550301@s.whatsapp.net');
	});

	it("takes a hidden number's contact id or username as who may answer", async () => {
		const contactId = ((await api('GET', '/contacts/@maria.lopez')).body as { id: string }).id;
		const registration = await api('POST', '/answers', {
			to: contactId,
			accepts: ['text'],
			url: 'http://127.0.0.1:9/answer',
			secret: 's'.repeat(32),
			expiresAt: inAMinute,
			allowedToAnswer: ['@Maria.Lopez', '14155550301@s.whatsapp.net'],
		});
		expect(registration.status).toBe(201);
		expect(registration.body).toMatchObject({
			allowedToAnswer: [contactId, '+14155550301'],
		});
	});
});
