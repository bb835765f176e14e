/* eslint-disable @n8n/community-nodes/no-restricted-globals -- tests run in plain Node, never inside n8n */
/**
 * The console's phone in headless chromium, signed in with the workspace key: what the contact does in the
 * chat view arrives at the sandbox, and at a messaging webhook, as `message.received` (what starts a
 * trigger): a text, a quote, a tap, a sample file, an upload. What n8n does through the API (a reply, typing,
 * an edit, a reaction) shows in the view while it is open. Group chats: console-chat-group.test.ts.
 */
import { createHash } from 'node:crypto';

import { chromiumAvailable } from '../../dev/browser/chromium';
import { sampleFile } from '../../sandbox/files/samples';
import type { Sandbox } from '../../sandbox/server';
import { openChat, chatMessage } from '../support/console-chat';
import {
	clientsFor,
	connectedInstance,
	consoleInBrowser,
	signInToConsole,
	startReceiver,
	type Receiver,
} from '../support/sandbox';

type Keys = NonNullable<Sandbox['keys']>;
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** Generous for a loaded machine; the view polls once a second. */
const SHOWN_WITHIN_MS = 8000;

(chromiumAvailable() || process.env.CI ? describe : describe.skip)('console: the phone', () => {
	const session = consoleInBrowser();
	let receiver: Receiver;
	let instanceId: string;
	const contact = '+14155550161';
	const client = () => clientsFor(session.sandbox.baseUrl, session.sandbox.keys as Keys).workspace;
	const received = (from: string) =>
		session.sandbox.store.all(
			'messages',
			(message) => message.direction === 'inbound' && message.from === from,
		);

	beforeAll(async () => {
		const { sandbox, page } = session;
		receiver = await startReceiver();
		const webhook = await client().webhooks.create({
			body: { url: `${receiver.url}/n8n`, events: ['message.received'] },
		});
		receiver.secrets.push(webhook.secret);
		instanceId = (await connectedInstance(sandbox, 'Console phone', '+14155550160')).id;
		await signInToConsole(page, sandbox.baseUrl, (sandbox.keys as Keys).workspace);
	});
	afterAll(async () => {
		await receiver?.close();
	});

	it('says what a number needs; a text typed as the contact arrives as message.received', async () => {
		const { page } = session;
		await openChat(page, instanceId, '415 555 0161', { expectError: true });
		expect(await page.text('#chat-pick-error')).toMatch(
			/^Contact: .*international form, with \+ and the country code/,
		);
		expect(await page.evaluate(`document.getElementById('chat-from').placeholder`)).toMatch(
			/international, with \+/,
		);

		await openChat(page, instanceId, contact);
		await page.type('#chat-text', 'Hello from the phone');
		await page.click('#chat-send');
		await page.waitFor(`document.getElementById('chat-text').value === ''`, { what: 'the send' });

		const [message] = received(contact);
		expect(message).toMatchObject({ type: 'text', content: { text: 'Hello from the phone' } });
		const delivery = await receiver.waitForEvent(
			'message.received',
			(candidate) => candidate.event.data.id === message.id,
		);
		expect(delivery.signature.valid).toBe(true);
		// The view shows it as the contact's own.
		await page.waitFor(`!!document.querySelector('${chatMessage(message.id)}.mine')`, {
			what: 'the text in the view',
		});
	});

	it('shows n8n’s typing while it lasts, then its reply with its status, an edit and a reaction', async () => {
		const { page } = session;
		await openChat(page, instanceId, contact);
		await client().messages.sendTyping({
			instanceId,
			body: { to: contact, state: 'composing', seconds: 25 },
		});
		await page.waitFor(`!document.getElementById('chat-typing').hidden`, {
			timeoutMs: SHOWN_WITHIN_MS,
			what: 'the typing indicator',
		});
		expect(await page.text('#chat-typing')).toBe('typing…');

		const startedAt = Date.now();
		const reply = await client().messages.sendText({
			instanceId,
			body: { to: contact, text: 'Thanks, we are on it' },
		});
		await page.waitFor(`!!document.querySelector('${chatMessage(reply.id)}')`, {
			timeoutMs: SHOWN_WITHIN_MS,
			what: 'the reply in the view',
		});
		process.stderr.write(`[console-chat] the reply showed after ${Date.now() - startedAt} ms\n`);
		expect(await page.text(`${chatMessage(reply.id)} .text`)).toBe('Thanks, we are on it');
		// Sending ended the typing; the status moves on to read, as the contact's phone reads it.
		await page.waitFor(`document.getElementById('chat-typing').hidden`, {
			timeoutMs: SHOWN_WITHIN_MS,
			what: 'the typing indicator to end',
		});
		await page.waitFor(
			`document.querySelector('${chatMessage(reply.id)} .status')?.dataset.status === 'read'`,
			{ timeoutMs: SHOWN_WITHIN_MS, what: 'the reply read' },
		);

		await client().messages.edit({
			instanceId,
			messageId: reply.id,
			body: { text: 'Thanks, we are on it: tomorrow' },
		});
		const [hello] = received(contact);
		await client().messages.sendReaction({
			instanceId,
			body: { to: contact, messageId: hello.id, emoji: '👍' },
		});
		await page.waitFor(
			`document.querySelector('${chatMessage(reply.id)} .text')?.textContent === 'Thanks, we are on it: tomorrow' &&
				!!document.querySelector('${chatMessage(reply.id)} .edited') &&
				document.querySelector('${chatMessage(hello.id)} .reactions')?.textContent === '👍'`,
			{ timeoutMs: SHOWN_WITHIN_MS, what: 'the edit and the reaction' },
		);
	});

	it('taps a button of n8n’s buttons message, delivered as the reply', async () => {
		const { page } = session;
		await openChat(page, instanceId, contact);
		const question = await client().messages.sendButtons({
			instanceId,
			body: {
				to: contact,
				text: 'Still on for Tuesday?',
				buttons: [
					{ id: 'yes', title: 'Yes' },
					{ id: 'move', title: 'Move it' },
				],
			},
		});
		const button = `${chatMessage(question.id)} button[data-id="move"]`;
		await page.waitFor(`!!document.querySelector('${button}')`, {
			timeoutMs: SHOWN_WITHIN_MS,
			what: 'the buttons',
		});
		await page.click(button);
		const delivery = await receiver.waitForEvent(
			'message.received',
			(candidate) =>
				(candidate.event.data.reply as { toMessageId?: string } | undefined)?.toMessageId ===
				question.id,
		);
		expect(delivery.event.data).toMatchObject({
			from: contact,
			type: 'reply',
			reply: { type: 'button', id: 'move', title: 'Move it', toMessageId: question.id },
		});
	});

	it('replies to (quotes) a message of the chat', async () => {
		const { page } = session;
		await openChat(page, instanceId, contact);
		const question = await client().messages.sendText({
			instanceId,
			body: { to: contact, text: 'Which size?' },
		});
		await page.waitFor(`!!document.querySelector('${chatMessage(question.id)} button.reply')`, {
			timeoutMs: SHOWN_WITHIN_MS,
			what: 'the message to quote',
		});
		await page.click(`${chatMessage(question.id)} button.reply`);
		expect(await page.text('#chat-quoting-text')).toBe('Replying to: Which size?');
		await page.type('#chat-text', 'Medium, please');
		await page.click('#chat-send');
		await page.waitFor(`document.getElementById('chat-quoting').hidden`, { what: 'the send' });

		const answer = received(contact).find((message) => message.content.text === 'Medium, please');
		expect(answer?.content).toEqual({ text: 'Medium, please', quotedMessageId: question.id });
		await receiver.waitForEvent(
			'message.received',
			(candidate) => candidate.event.data.id === answer?.id,
		);
		await page.waitFor(
			`document.querySelector('${chatMessage(answer?.id ?? '')} .quote')?.textContent === 'Which size?'`,
			{ what: 'the quote in the view' },
		);
	});

	it('sends a sample file and uploads one, each arriving as a file message', async () => {
		const { sandbox, page } = session;
		await openChat(page, instanceId, contact);
		await page.playwright.selectOption('#chat-sample', 'pdf');
		await page.type('#chat-text', 'Invoice attached');
		await page.click('#chat-send-sample');
		await page.waitFor(`document.getElementById('chat-text').value === ''`, { what: 'the sample' });
		const sample = received(contact).find((message) => message.type === 'document');
		expect(sample).toMatchObject({
			content: { caption: 'Invoice attached' },
			media: { fileName: 'sample-document.pdf', mimeType: 'application/pdf' },
		});
		const kept = sandbox.core.media.get(sandbox.workspaceId, sample?.media?.id ?? '');
		expect(sha256(kept?.data ?? Buffer.alloc(0))).toBe(sha256(sampleFile('pdf').data));

		const bytes = Buffer.from('name,size\nBlue jacket,M\n');
		await page.playwright.setInputFiles('#chat-file', {
			name: 'order.csv',
			mimeType: 'text/csv',
			buffer: bytes,
		});
		const upload = await receiver.waitForEvent(
			'message.received',
			(candidate) =>
				(candidate.event.data.media as { fileName?: string } | undefined)?.fileName === 'order.csv',
		);
		expect(upload.event.data).toMatchObject({
			from: contact,
			media: { mimeType: 'text/csv', size: bytes.length, sha256: sha256(bytes) },
		});
		await page.waitFor(
			`!!document.querySelector('${chatMessage(upload.event.data.id as string)}.mine .file')`,
			{ what: 'the upload in the view' },
		);
	});

	it('answers as the business from its own phone: a message the business sent, the chat handed over and given back', async () => {
		const { page } = session;
		await openChat(page, instanceId, contact);
		await page.type('#chat-text', 'Anyone there?');
		await page.click('#chat-send');
		await page.waitFor(`document.getElementById('chat-text').value === ''`, {
			what: 'the question',
		});
		await page.type('#chat-text', 'Hi, this is Sam from the shop');
		await page.click('#chat-answer-business');
		await page.waitFor(`document.getElementById('chat-text').value === ''`, { what: 'the answer' });

		const [answer] = session.sandbox.store.all(
			'messages',
			(message) => message.direction === 'outbound' && message.fromBusinessPhone === true,
		);
		expect(answer).toMatchObject({
			to: contact,
			content: { text: 'Hi, this is Sam from the shop' },
		});
		const chat = await client().chats.get({ instanceId, chatId: contact });
		expect(chat.handOver).toMatchObject({ handedOver: true, by: 'business_phone' });
		await page.waitFor(`!!document.querySelector('${chatMessage(answer.id)}:not(.mine)')`, {
			what: 'the answer in the view, as the business’s',
		});
		// Told apart from what a workflow sent through the API: a person wrote it on the phone.
		expect(
			await page.evaluate(
				`document.querySelector('${chatMessage(answer.id)} .from-phone')?.textContent ?? null`,
			),
		).toBe('from the business’s phone');
		await page.waitFor(`!document.getElementById('chat-handed-over').hidden`, {
			what: 'the chat shown handed over',
		});

		// The person is done: the phone gives the chat back, as Chat → Give Back does.
		await page.click('#chat-give-back');
		await page.waitFor(`document.getElementById('chat-handed-over').hidden`, {
			what: 'the chat shown given back',
		});
		expect(await page.evaluate(`document.getElementById('chat-give-back').hidden`)).toBe(true);
		const given = await client().chats.get({ instanceId, chatId: contact });
		expect(given.handOver).toMatchObject({ handedOver: false });
	});

	it('plays a contact who hides their number: @username writes, its bubble is its own, and the answer shows', async () => {
		const { page } = session;
		// The field says a username works, and a contact who wrote as one is offered by it.
		expect(await page.evaluate(`document.getElementById('chat-from').placeholder`)).toMatch(
			/or @username$/,
		);
		await openChat(page, instanceId, '@ana.hidden');
		await page.type('#chat-text', 'Is my parcel out?');
		await page.click('#chat-send');
		await page.waitFor(`document.getElementById('chat-text').value === ''`, { what: 'the send' });

		const [written] = session.sandbox.store.all(
			'messages',
			(message) => message.direction === 'inbound' && message.username === 'ana.hidden',
		);
		expect(written.from).toMatch(/^ct_/);
		const answer = await client().messages.sendText({
			instanceId,
			body: { to: written.from as string, text: 'Yes, today' },
		});
		await page.waitFor(`!!document.querySelector('${chatMessage(written.id)}.mine')`, {
			what: 'the contact’s own text, as its own',
		});
		await page.waitFor(`!!document.querySelector('${chatMessage(answer.id)}:not(.mine)')`, {
			what: 'the answer to its contact id in its chat',
		});
		await page.evaluate(`document.getElementById('chat-group').dispatchEvent(new Event('change'))`);
		await page.waitFor(
			`!!document.querySelector('#chat-member-options option[value="@ana.hidden"]')`,
			{ what: 'the contact offered by their username' },
		);
	});
});
