/**
 * The contact's own acts as events (issue 48): a reaction put on and taken off, an edit and a delete of the
 * contact's own message (`by: contact`; the business's edit and delete say `by: business`), presence, and the
 * channel restricting the instance; each emits its event once, and an act that changes nothing (a second delete,
 * a reaction taken off that is not on) is refused. `presence.updated` reaches a webhook that names it, never one on
 * `*`. The instance shows its restriction.
 */
import {
	connectedInstance,
	raw,
	receiveAllWorkspaceEvents,
	sandboxWithReceiver,
	waitFor,
} from '../support/sandbox';

const suite = sandboxWithReceiver({ rateLimit: false });
const contact = '+14155550701';
let instanceId: string;

const sandboxCall = async (path: string, body: unknown = {}) =>
	await raw(suite.sandbox.baseUrl, 'POST', `/sandbox/instances/${instanceId}${path}`, {
		key: suite.keys.workspace,
		body,
	});

/** The data of each event of this type emitted so far, oldest first. */
const emitted = (type: string) =>
	suite.sandbox.core.emitted
		.filter((event) => event.type === type)
		.map((event) => event.data as Record<string, unknown>);

beforeAll(async () => {
	instanceId = (await connectedInstance(suite.sandbox, 'Acts', '+14155550700')).id;
});

test('a reaction put on and taken off: one message.reaction each, naming the message, emoji and who', async () => {
	const sent = await suite.clients.workspace.messages.sendText({
		instanceId,
		body: { to: contact, text: 'Your order shipped' },
	});
	expect((await sandboxCall(`/messages/${sent.id}/react`, { emoji: '👍' })).status).toBe(201);
	const off = await sandboxCall(`/messages/${sent.id}/react`, { emoji: '' });
	expect(off.status).toBe(201);
	// Nothing left to take off: refused, and no event.
	expect((await sandboxCall(`/messages/${sent.id}/react`, { emoji: '' })).body).toMatchObject({
		error: { code: 'no_reaction' },
	});
	const base = {
		instanceId,
		chatId: '14155550701@s.whatsapp.net',
		messageId: sent.id,
		from: contact,
		messageDirection: 'outbound',
	};
	expect(emitted('message.reaction')).toEqual([
		expect.objectContaining({ ...base, emoji: '👍', action: 'added' }),
		expect.objectContaining({ ...base, emoji: '👍', action: 'removed' }),
	]);
	// A reaction is not reacted to.
	const reactions = await suite.clients.workspace.messages.list({
		instanceId,
		query: { chatId: contact },
	});
	const reaction = reactions.data.find((message) => message.type === 'reaction');
	const onReaction = await sandboxCall(`/messages/${String(reaction?.id)}/react`, { emoji: '👍' });
	expect(onReaction.body).toMatchObject({ error: { code: 'not_reactable' } });
	// Only the chat's contact reacts in a 1:1 chat.
	const stranger = await sandboxCall(`/messages/${sent.id}/react`, {
		emoji: '👍',
		from: '+14155550799',
	});
	expect(stranger.status).toBe(400);
});

test('the contact edits, then deletes, their message: by contact, once; the business’s own say by business', async () => {
	const received = await sandboxCall('/inbound', { from: contact, text: 'I want 2' });
	const messageId = (received.body as { id: string }).id;
	const edit = await sandboxCall(`/messages/${messageId}/edit`, { text: 'I want 3' });
	expect(edit.body).toMatchObject({ by: 'contact', previousText: 'I want 2' });
	expect((await sandboxCall(`/messages/${messageId}/delete`)).status).toBe(200);
	expect((await sandboxCall(`/messages/${messageId}/delete`)).body).toMatchObject({
		error: { code: 'message_deleted' },
	});
	const mine = await suite.clients.workspace.messages.sendText({
		instanceId,
		body: { to: contact, text: 'Hello' },
	});
	// The contact changes only what they wrote.
	expect((await sandboxCall(`/messages/${mine.id}/delete`)).status).toBe(409);
	await suite.clients.workspace.messages.edit({
		instanceId,
		messageId: mine.id,
		body: { text: 'Hello!' },
	});
	await suite.clients.workspace.messages.delete({ instanceId, messageId: mine.id });

	expect(
		emitted('message.edited').map(({ id, by, previousText, content }) => [
			id,
			by,
			previousText,
			content,
		]),
	).toEqual([
		[messageId, 'contact', 'I want 2', expect.objectContaining({ text: 'I want 3' })],
		[mine.id, 'business', 'Hello', expect.objectContaining({ text: 'Hello!' })],
	]);
	// The deleted message as it was; the chat keeps it, without its content.
	expect(emitted('message.deleted').map(({ id, by, content }) => [id, by, content])).toEqual([
		[messageId, 'contact', expect.objectContaining({ text: 'I want 3' })],
		[mine.id, 'business', expect.objectContaining({ text: 'Hello!' })],
	]);
	const kept = await suite.clients.workspace.messages.get({ instanceId, messageId });
	expect(kept).toMatchObject({ content: {}, deletedAt: expect.any(String) });
});

test('presence reaches a webhook that names it, never one on every event (*), a repeated online none; a restriction is announced', async () => {
	const all = await receiveAllWorkspaceEvents(suite);
	const named = await suite.clients.workspace.webhooks.create({
		body: { url: `${suite.receiver.url}/presence`, events: ['presence.updated'] },
	});
	suite.receiver.secrets.push(named.secret);
	for (const state of ['typing', 'typing', 'online', 'online']) {
		expect((await sandboxCall('/presence', { from: contact, state })).status).toBe(200);
	}
	// Typing comes again while it lasts, each time an event; online again changes nothing.
	expect(emitted('presence.updated').map((presence) => presence.state)).toEqual([
		'typing',
		'typing',
		'online',
	]);
	const restricted = await sandboxCall('/restrict', { reason: 'spam_reports', hours: 24 });
	expect(restricted.body).toMatchObject({
		instanceId,
		reason: 'spam_reports',
		description: expect.any(String),
		until: expect.any(String),
	});
	// The instance says so too, for a workflow that checks before it sends.
	expect((await suite.clients.workspace.instances.get({ instanceId })).restriction).toEqual({
		reason: 'spam_reports',
		description: expect.any(String),
		until: (restricted.body as { until: string }).until,
		restrictedAt: expect.any(String),
	});
	await suite.receiver.waitForEvent('instance.restricted');
	await waitFor(
		() => suite.receiver.of('presence.updated').length >= 3 || undefined,
		5000,
		'presence',
	);
	expect(
		suite.receiver
			.of('presence.updated')
			.map(({ path, event }) => [path, event.data.state, event.data.chatId]),
	).toEqual([
		['/presence', 'typing', '14155550701@s.whatsapp.net'],
		['/presence', 'typing', '14155550701@s.whatsapp.net'],
		['/presence', 'online', null],
	]);
	expect(all.events).toEqual(['*']);
});

test('a contact who hides their number acts as their contact id, with their username, in their …@lid chat', async () => {
	const written = await sandboxCall('/inbound', { from: '@ana.hidden', text: 'Hi' });
	const { id: messageId, from: contactId, chatId } = written.body as Record<string, string>;
	expect(contactId).toMatch(/^ct_/);
	expect((await sandboxCall(`/messages/${messageId}/react`, { emoji: '🙏' })).status).toBe(201);
	expect((await sandboxCall('/presence', { from: '@ana.hidden', state: 'typing' })).status).toBe(
		200,
	);
	const who = { from: contactId, username: 'ana.hidden', chatId };
	expect(emitted('message.reaction').at(-1)).toMatchObject({ ...who, emoji: '🙏' });
	expect(emitted('presence.updated').at(-1)).toMatchObject({ ...who, state: 'typing' });
	expect(emitted('presence.updated').at(-1)).not.toHaveProperty('phone');
	// Another person cannot act in this chat.
	const other = await sandboxCall(`/messages/${messageId}/react`, { emoji: '🙏', from: contact });
	expect(other.status).toBe(400);
});
