/**
 * Interactive messages in the sandbox, through real HTTP: reply buttons and lists (and the channel's limits,
 * refused before sending by the client and by the service), a simulated tap coming back as `message.received`
 * with `reply`, editing a sent text (`message.edited`) and the typing indicator.
 */
import { RequestValidationError } from '../../src/client';
import {
	connectedInstance,
	raw,
	receiveAllWorkspaceEvents,
	sandboxWithReceiver,
	type SandboxWithReceiver,
} from '../support/sandbox';

const suite = sandboxWithReceiver();
let client: SandboxWithReceiver['clients']['workspace'];
let instanceId: string;

const sandboxCall = (path: string, body: unknown = {}) =>
	raw(suite.sandbox.baseUrl, 'POST', path, { key: suite.keys.workspace, body });
const tap = (messageId: string, body: unknown) =>
	sandboxCall(`/sandbox/instances/${instanceId}/messages/${messageId}/tap`, body);

const buttons = {
	to: '+14155550171',
	text: 'Is Tuesday at 10:00 still good?',
	header: 'Your appointment',
	footer: 'Dental Care Co.',
	buttons: [
		{ id: 'yes', title: 'Yes, see you' },
		{ id: 'move', title: 'Move it' },
	],
};
const list = {
	to: '+14155550172',
	text: 'Pick a time',
	buttonText: 'See times',
	sections: [
		{ title: 'Morning', rows: [{ id: 'am-9', title: '09:00', description: 'Dr. Silva' }] },
		{ title: 'Afternoon', rows: [{ id: 'pm-2', title: '14:00' }] },
	],
};

beforeAll(async () => {
	client = suite.clients.workspace;
	await receiveAllWorkspaceEvents(suite);
	instanceId = (await connectedInstance(suite.sandbox, 'Interactive', '+14155550170')).id;
});

describe('reply buttons and lists', () => {
	it('sends buttons; a tap comes back as message.received with the reply', async () => {
		const sent = await client.messages.sendButtons({ instanceId, body: buttons });
		expect(sent).toMatchObject({
			type: 'buttons',
			status: 'sent',
			content: {
				text: buttons.text,
				header: 'Your appointment',
				footer: 'Dental Care Co.',
				buttons: buttons.buttons,
			},
		});

		const tapped = await tap(sent.id, { id: 'move' });
		expect(tapped.status).toBe(201);
		const reply = { type: 'button', id: 'move', title: 'Move it', toMessageId: sent.id };
		expect(tapped.body).toMatchObject({
			direction: 'inbound',
			from: '+14155550171',
			type: 'reply',
			content: { text: 'Move it' },
			reply,
		});
		const delivery = await suite.receiver.waitForEvent(
			'message.received',
			(received) => received.event.data.id === (tapped.body as { id: string }).id,
		);
		expect(delivery.signature.valid).toBe(true);
		expect(delivery.event.data).toMatchObject({ reply, chatId: '14155550171@s.whatsapp.net' });
	});

	it('sends a list; a tap on a row names the row', async () => {
		const sent = await client.messages.sendList({ instanceId, body: list });
		expect(sent.content).toMatchObject({
			buttonText: 'See times',
			sections: [
				{ title: 'Morning', rows: [{ id: 'am-9', title: '09:00', description: 'Dr. Silva' }] },
				{ title: 'Afternoon', rows: [{ id: 'pm-2', title: '14:00', description: null }] },
			],
		});
		const tapped = await tap(sent.id, { id: 'pm-2' });
		expect(tapped.status).toBe(201);
		expect(tapped.body).toMatchObject({
			reply: { type: 'list', id: 'pm-2', title: '14:00', toMessageId: sent.id },
		});
	});

	it('refuses a tap on an id the message did not offer, on a non-interactive message, by someone else', async () => {
		const sent = await client.messages.sendButtons({ instanceId, body: buttons });
		const before = suite.sandbox.store.all('messages').length;

		const unknown = await tap(sent.id, { id: 'maybe' });
		expect(unknown.status).toBe(400);
		expect(unknown.body).toMatchObject({
			error: {
				code: 'choice_not_offered',
				message: expect.stringContaining(
					'offers no button with id "maybe"; it offers "yes", "move"',
				),
				details: [{ field: 'body.id' }],
			},
		});

		const stranger = await tap(sent.id, { id: 'yes', from: '+14155550999' });
		expect(stranger.status).toBe(400);
		expect(stranger.body).toMatchObject({ error: { details: [{ field: 'body.from' }] } });

		const text = await client.messages.sendText({
			instanceId,
			body: { to: '+14155550171', text: 'plain' },
		});
		expect((await tap(text.id, { id: 'yes' })).status).toBe(409);
		expect((await tap('msg_missing', { id: 'yes' })).status).toBe(404);
		expect((await tap(sent.id, { id: '' })).status).toBe(400);
		expect((await tap(sent.id, 'not an object')).status).toBe(400);
		expect(suite.sandbox.store.all('messages')).toHaveLength(before + 1);
	});

	it('a tap in a group needs the member who tapped', async () => {
		const group = await client.groups.create({
			instanceId,
			body: { subject: 'Team', participants: ['+14155550181'] },
		});
		const sent = await client.messages.sendButtons({
			instanceId,
			body: { ...buttons, to: group.id },
		});
		expect((await tap(sent.id, { id: 'yes' })).status).toBe(400);
		const tapped = await tap(sent.id, { id: 'yes', from: '+14155550181' });
		expect(tapped.status).toBe(201);
		expect(tapped.body).toMatchObject({ from: '+14155550181', chatId: group.id });
	});

	it.each([
		[
			'four buttons',
			{ buttons: [1, 2, 3, 4].map((n) => ({ id: `b${n}`, title: `B${n}` })) },
			'body.buttons',
		],
		[
			'a title over 20 characters',
			{ buttons: [{ id: 'a', title: 'x'.repeat(21) }] },
			'body.buttons.0.title',
		],
		[
			'the same id twice',
			{
				buttons: [
					{ id: 'a', title: 'A' },
					{ id: 'a', title: 'B' },
				],
			},
			'body.buttons.1.id',
		],
		['a header over 60 characters', { header: 'h'.repeat(61) }, 'body.header'],
		['a body over 1024 characters', { text: 't'.repeat(1025) }, 'body.text'],
	])('buttons with %s are refused before sending, and by the service', async (_, change, field) => {
		const body = { ...buttons, ...change };
		const error = await client.messages
			.sendButtons({ instanceId, body })
			.catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(RequestValidationError);
		expect((error as RequestValidationError).issues.map((issue) => issue.field)).toContain(field);

		const direct = await sandboxCall(`/api/v1/instances/${instanceId}/messages/buttons`, body);
		expect(direct.status).toBe(400);
		expect(JSON.stringify(direct.body)).toContain(field);
	});

	it('counts characters as the channel shows them: emoji up to the limit pass, one more is refused', async () => {
		// Each emoji is two UTF-16 units: counted in units, 11 would break the 20 of a title, 9 the 16 of a reaction.
		const title = (count: number) =>
			sandboxCall(`/api/v1/instances/${instanceId}/messages/buttons`, {
				...buttons,
				buttons: [{ id: 'e', title: '😀'.repeat(count) }],
			});
		const fits = await title(20);
		expect(fits.status).toBe(201);
		expect(fits.body).toMatchObject({ content: { buttons: [{ title: '😀'.repeat(20) }] } });
		const over = await title(21);
		expect(over.status).toBe(400);
		expect((over.body as { error: { details: unknown } }).error.details).toEqual([
			{ field: 'body.buttons.0.title', message: 'at most 20 characters; this one has 21' },
		]);

		const react = (count: number) =>
			sandboxCall(`/api/v1/instances/${instanceId}/messages/reaction`, {
				to: buttons.to,
				messageId: (fits.body as { id: string }).id,
				emoji: '👍'.repeat(count),
			});
		expect((await react(16)).status).toBe(201);
		expect((await react(17)).body).toMatchObject({
			error: {
				details: [{ field: 'body.emoji', message: 'at most 16 characters; this one has 17' }],
			},
		});
	});

	it.each([
		[
			'11 rows in all',
			{
				sections: [
					{ title: 'A', rows: [1, 2, 3, 4, 5, 6].map((n) => ({ id: `a${n}`, title: `${n}` })) },
					{ title: 'B', rows: [1, 2, 3, 4, 5].map((n) => ({ id: `b${n}`, title: `${n}` })) },
				],
			},
			'body.sections',
		],
		[
			'two sections, one without a title',
			{
				sections: [
					{ title: 'A', rows: [{ id: 'a', title: 'A' }] },
					{ rows: [{ id: 'b', title: 'B' }] },
				],
			},
			'body.sections.1.title',
		],
		[
			'a row id used twice',
			{
				sections: [
					{ title: 'A', rows: [{ id: 'a', title: 'A' }] },
					{ title: 'B', rows: [{ id: 'a', title: 'B' }] },
				],
			},
			'body.sections.1.rows.0.id',
		],
		[
			'a row description over 72 characters',
			{ sections: [{ rows: [{ id: 'a', title: 'A', description: 'd'.repeat(73) }] }] },
			'body.sections.0.rows.0.description',
		],
		['a button label over 20 characters', { buttonText: 'b'.repeat(21) }, 'body.buttonText'],
	])('a list with %s is refused before sending, and by the service', async (_, change, field) => {
		const body = { ...list, ...change };
		const error = await client.messages
			.sendList({ instanceId, body })
			.catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(RequestValidationError);
		expect((error as RequestValidationError).issues.map((issue) => issue.field)).toContain(field);

		const direct = await sandboxCall(`/api/v1/instances/${instanceId}/messages/list`, body);
		expect(direct.status).toBe(400);
		expect(JSON.stringify(direct.body)).toContain(field);
	});
});

describe('editing and typing', () => {
	it('edits the text of a sent text message (message.edited)', async () => {
		const sent = await client.messages.sendText({
			instanceId,
			body: { to: '+14155550173', text: 'See you at 10' },
		});
		const edited = await client.messages.edit({
			instanceId,
			messageId: sent.id,
			body: { text: 'See you at 11' },
		});
		expect(edited).toMatchObject({
			id: sent.id,
			content: { text: 'See you at 11' },
			editedAt: expect.any(String),
		});
		const delivery = await suite.receiver.waitForEvent(
			'message.edited',
			(received) => received.event.data.id === sent.id,
		);
		expect(delivery.event.data).toMatchObject({ content: { text: 'See you at 11' } });
		expect(suite.sandbox.store.get('messages', sent.id)?.content.text).toBe('See you at 11');
	});

	it('refuses to edit a received message or one that is not text', async () => {
		const poll = await client.messages.sendPoll({
			instanceId,
			body: { to: '+14155550173', question: 'Which?', options: ['A', 'B'] },
		});
		const path = (id: string) => `/api/v1/instances/${instanceId}/messages/${id}`;
		const edit = (id: string) =>
			raw(suite.sandbox.baseUrl, 'PATCH', path(id), {
				key: suite.keys.workspace,
				body: { text: 'x' },
			});
		expect(await edit(poll.id)).toMatchObject({
			status: 409,
			body: { error: { code: 'not_editable', message: expect.stringContaining('poll message') } },
		});
		const inbound = await sandboxCall(`/sandbox/instances/${instanceId}/inbound`, {
			from: '+14155550174',
			text: 'Hello',
		});
		expect(await edit((inbound.body as { id: string }).id)).toMatchObject({
			status: 409,
			body: { error: { code: 'not_outbound' } },
		});
		expect(suite.sandbox.store.get('messages', poll.id)?.content.question).toBe('Which?');
	});

	it('ends the typing indicator in a chat when the instance sends a message there, and only there', async () => {
		for (const to of ['+14155550176', '+14155550177']) {
			await client.messages.sendTyping({ instanceId, body: { to, state: 'composing', seconds: 20 } });
		}
		await client.messages.sendText({ instanceId, body: { to: '+14155550176', text: 'Done' } });
		const typing = suite.sandbox.store.get('instances', instanceId)?.typing ?? {};
		expect(Object.keys(typing)).toContain('14155550177@s.whatsapp.net');
		expect(Object.keys(typing)).not.toContain('14155550176@s.whatsapp.net');
	});

	it('shows a typing indicator for a bounded number of seconds', async () => {
		const typing = await client.messages.sendTyping({
			instanceId,
			body: { to: '+14155550175', state: 'recording', seconds: 8 },
		});
		expect(typing).toMatchObject({
			instanceId,
			chatId: '14155550175@s.whatsapp.net',
			state: 'recording',
		});
		const instance = suite.sandbox.store.get('instances', instanceId);
		expect(instance?.typing?.['14155550175@s.whatsapp.net']).toEqual({
			state: 'recording',
			until: typing.until,
		});
		const seconds = (Date.parse(typing.until) - Date.now()) / 1000;
		expect(seconds).toBeGreaterThan(6);
		expect(seconds).toBeLessThanOrEqual(8);

		const tooLong = await sandboxCall(`/api/v1/instances/${instanceId}/typing`, {
			to: '+14155550175',
			seconds: 26,
		});
		expect(tooLong).toMatchObject({
			status: 400,
			body: { error: { details: [{ field: 'body.seconds' }] } },
		});
	});
});
