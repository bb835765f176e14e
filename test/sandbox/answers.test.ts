/* eslint-disable @n8n/community-nodes/no-restricted-imports -- tests run in plain Node, never inside n8n */
/**
 * One-shot answer registrations in the sandbox, through real HTTP: the first answer to a message from its chat
 * is delivered once, signed with the registration's secret, to its URL, and then the registration is gone; a
 * reply from another chat, a tap on another message or a text (when taps are asked for) answers nothing; a
 * registration ends at its expiry, on DELETE, and when the receiver answers 404/410 (409: see answer-race.test.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ApiError } from '../../src/client';
import type { Sandbox } from '../../sandbox/server';
import { startService, type TestService } from '../support/nodes';
import {
	clientsFor,
	raw,
	sleep,
	startReceiver,
	startTestSandbox,
	waitFor,
	type Receiver,
} from '../support/sandbox';

type Keys = NonNullable<Sandbox['keys']>;

const SECRET = 'a'.repeat(32);
const CONTACT = '+14155550181';
const OTHER = '+14155550182';

let service: TestService;
let client: TestService['client'];
let receiver: Receiver;
let instanceId: string;

const tap = (messageId: string, id: string) => service.tap(instanceId, messageId, id);
const write = (from: string, text: string) => service.inbound(instanceId, from, text);
const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
/**
 * The sandbox's clock: real time (plus how far tests moved it), unless a test holds it; then it moves only when the
 * test moves it. It never goes back.
 */
let heldAt: number | undefined;
let ahead = 0;

beforeAll(async () => {
	service = await startService({
		webhooks: { maxAttempts: 3, retryBaseMs: 20 },
		now: () => heldAt ?? Date.now() + ahead,
	});
	client = service.client;
	receiver = await startReceiver();
	receiver.secrets.push(SECRET);
	instanceId = (await service.connectedInstance('Answers')).id;
});
afterAll(async () => {
	await service.close();
	await receiver.close();
});

async function approval(to = CONTACT) {
	return await client.messages.sendButtons({
		instanceId,
		body: {
			to,
			text: 'Refund $120 for order 1042?',
			buttons: [
				{ id: 'approve', title: 'Approve' },
				{ id: 'decline', title: 'Decline' },
			],
		},
	});
}

async function register(messageId: string, path: string, accepts: Array<'reply' | 'text'>) {
	return await client.answers.register({
		instanceId,
		body: {
			messageId,
			accepts,
			url: `${receiver.url}/${path}`,
			secret: SECRET,
			expiresAt: inMinutes(5),
		},
	});
}

const at = (path: string) => receiver.received.filter((delivery) => delivery.path === `/${path}`);
const waiting = async () => (await client.answers.list({ instanceId })).data;

it('delivers a tap on the message once, signed, then forgets the registration', async () => {
	const question = await approval();
	const registration = await register(question.id, 'tap', ['reply']);
	expect(registration).toMatchObject({
		instanceId,
		messageId: question.id,
		chatId: question.chatId,
		status: 'waiting',
	});
	expect(registration).not.toHaveProperty('secret');
	expect(registration).not.toHaveProperty('url');

	await tap(question.id, 'approve');
	const delivery = await waitFor(() => at('tap')[0], 5000, 'the answer');
	expect(delivery.signature.valid).toBe(true);
	expect(delivery.event).toMatchObject({
		type: 'message.answered',
		data: {
			registrationId: registration.id,
			instanceId,
			messageId: question.id,
			answer: { type: 'button', id: 'approve', title: 'Approve', text: 'Approve' },
			from: CONTACT,
		},
	});
	await sleep(50);
	expect(await waiting()).toEqual([]);
	await expect(client.answers.get({ instanceId, answerId: registration.id })).rejects.toMatchObject(
		{
			status: 404,
		},
	);

	// A second tap answers nothing more.
	await tap(question.id, 'decline');
	await sleep(100);
	expect(at('tap')).toHaveLength(1);
});

it('marks the message it takes as an answer before webhooks get it (answeredQuestion); others are not marked', async () => {
	const hook = await client.webhooks.create({
		body: { url: `${receiver.url}/webhook`, events: ['message.received'] },
	});
	receiver.secrets.push(hook.secret);
	try {
		const question = await approval();
		const registration = await register(question.id, 'marked', ['reply']);
		await tap(question.id, 'approve');
		await tap(question.id, 'decline'); // the registration is gone: a tap for webhooks only
		await write(CONTACT, 'thanks');

		const received = await waitFor(
			() => {
				const all = at('webhook');
				return all.length >= 3 && all;
			},
			5000,
			'three message.received deliveries',
		);
		const marks = received.map((delivery) => [
			(delivery.event.data.reply as { id?: string } | undefined)?.id ?? delivery.event.data.content,
			delivery.event.data.answeredQuestion,
		]);
		expect(marks).toEqual([
			['approve', { registrationId: registration.id, messageId: question.id }],
			['decline', undefined],
			[{ text: 'thanks' }, undefined],
		]);
		// The stored message says so too.
		const taken = await client.messages.get({
			instanceId,
			messageId: String(received[0].event.data.id),
		});
		expect(taken.answeredQuestion).toEqual({
			registrationId: registration.id,
			messageId: question.id,
		});
	} finally {
		await client.webhooks.delete({ webhookId: hook.id });
	}
});

it('ignores replies from another chat, taps on another message and texts when taps are asked for', async () => {
	const question = await approval();
	const elsewhere = await approval(OTHER);
	await register(question.id, 'filtered', ['reply']);

	await tap(elsewhere.id, 'approve'); // another chat, another message
	await write(CONTACT, 'yes please'); // a text, but a tap is asked for
	await write(OTHER, 'approve');
	await sleep(150);
	expect(at('filtered')).toHaveLength(0);
	expect(await waiting()).toHaveLength(1);

	await tap(question.id, 'decline');
	const delivery = await waitFor(() => at('filtered')[0], 5000, 'the answer');
	expect(delivery.event.data).toMatchObject({ answer: { id: 'decline' }, from: CONTACT });
	await sleep(50);
	expect(await waiting()).toEqual([]);
});

it('Free Text: the next text from that chat is the answer', async () => {
	const question = await client.messages.sendText({
		instanceId,
		body: { to: CONTACT, text: 'What went wrong with the order?' },
	});
	await register(question.id, 'text', ['text']);
	await write(OTHER, 'not me');
	await write(CONTACT, 'The box was empty');
	const delivery = await waitFor(() => at('text')[0], 5000, 'the answer');
	expect(delivery.event.data).toMatchObject({
		answer: { type: 'text', id: null, title: null, text: 'The box was empty' },
		from: CONTACT,
	});
});

it('an answer that came before the registration is delivered at once', async () => {
	const question = await approval();
	await tap(question.id, 'approve');
	await register(question.id, 'early', ['reply']);
	const delivery = await waitFor(() => at('early')[0], 5000, 'the answer');
	expect(delivery.event.data).toMatchObject({ answer: { id: 'approve' } });
});

it('a receiver that is gone (410) ends the registration; one that fails is retried, then given up', async () => {
	receiver.respond = (delivery) =>
		delivery.path === '/gone' ? 410 : delivery.path === '/failing' ? 500 : 200;
	const gone = await approval();
	await register(gone.id, 'gone', ['reply']);
	const failing = await approval(OTHER);
	await register(failing.id, 'failing', ['reply']);
	await tap(gone.id, 'approve');
	await tap(failing.id, 'approve');

	await waitFor(() => at('failing').length === 3, 5000, 'three attempts');
	await sleep(200);
	expect(at('gone')).toHaveLength(1);
	expect(at('failing').map((delivery) => delivery.attempt)).toEqual([1, 2, 3]);
	expect(new Set(at('failing').map((delivery) => delivery.event.id)).size).toBe(1);
	expect(await waiting()).toEqual([]);
	receiver.respond = () => 200;
});

it('ends at its expiry and on DELETE, delivering nothing', async () => {
	const question = await approval();
	// Held, so that the registration lives exactly until the test moves the clock past its expiry.
	heldAt = Date.now() + ahead;
	try {
		const short = await client.answers.register({
			instanceId,
			body: {
				messageId: question.id,
				accepts: ['reply'],
				url: `${receiver.url}/expired`,
				secret: SECRET,
				expiresAt: new Date(heldAt + 300).toISOString(),
			},
		});
		const cancelled = await register(question.id, 'cancelled', ['reply']);
		await client.answers.delete({ instanceId, answerId: cancelled.id });
		expect((await waiting()).map((registration) => registration.id)).toEqual([short.id]);
		heldAt += 400;
		expect(await waiting()).toEqual([]);
		await tap(question.id, 'approve');
		await sleep(150);
		expect(at('expired')).toHaveLength(0);
		expect(at('cancelled')).toHaveLength(0);
	} finally {
		ahead += Math.max(0, heldAt - Date.now() - ahead);
		heldAt = undefined;
	}
});

it('refuses what cannot be waited for, naming the field', async () => {
	const question = await approval();
	const received = await write(CONTACT, 'hello');
	const attempt = (body: Record<string, unknown>) =>
		client.answers.register({
			instanceId,
			body: {
				messageId: question.id,
				accepts: ['reply'],
				url: `${receiver.url}/refused`,
				secret: SECRET,
				expiresAt: inMinutes(5),
				...body,
			} as never,
		});
	await expect(attempt({ expiresAt: inMinutes(-1) })).rejects.toMatchObject({
		status: 400,
		message: expect.stringContaining('body.expiresAt'),
	});
	await expect(attempt({ expiresAt: inMinutes(31 * 24 * 60) })).rejects.toBeInstanceOf(ApiError);
	await expect(attempt({ url: 'http://169.254.169.254/latest' })).rejects.toMatchObject({
		status: 400,
		message: expect.stringContaining('body.url'),
	});
	await expect(attempt({ messageId: received.id })).rejects.toMatchObject({ status: 409 });
	await expect(attempt({ messageId: 'msg_unknown' })).rejects.toMatchObject({ status: 404 });
	await expect(attempt({ secret: 'short' })).rejects.toThrow(/body\.secret/);
	expect(await waiting()).toEqual([]);
});

it('survives a restart of the service: a registration still waits, an answer not yet delivered is sent', async () => {
	const directory = mkdtempSync(join(tmpdir(), 'sandbox-answers-'));
	const dataFile = join(directory, 'state.json');
	// A receiver that is down while the first sandbox runs: its port is reserved, then closed.
	const placeholder = await startReceiver();
	const port = Number(new URL(placeholder.url).port);
	await placeholder.close();
	const options = { dataFile, webhooks: { retryBaseMs: 5_000, maxAttempts: 3 } };
	try {
		const firstService = await startService(options);
		const first = firstService.sandbox;
		const firstKeys = first.keys as Keys;
		const firstClient = firstService.client;
		const instance = await firstService.connectedInstance('Restarted');
		const call = (base: string, path: string, body: unknown) =>
			raw(base, 'POST', path, { key: firstKeys.workspace, body });
		const ask = async (to: string, path: string) => {
			const question = await firstClient.messages.sendButtons({
				instanceId: instance.id,
				body: { to, text: 'OK?', buttons: [{ id: 'yes', title: 'Yes' }] },
			});
			await firstClient.answers.register({
				instanceId: instance.id,
				body: {
					messageId: question.id,
					accepts: ['reply'],
					url: `http://127.0.0.1:${port}/${path}`,
					secret: SECRET,
					expiresAt: inMinutes(5),
				},
			});
			return question;
		};
		const answeredBefore = await ask(CONTACT, 'before');
		const answeredAfter = await ask(OTHER, 'after');
		await firstService.tap(instance.id, answeredBefore.id, 'yes');
		await waitFor(
			() => first.store.get('answers', first.store.all('answers')[0].id)?.delivery?.attempt === 1,
			5000,
			'a failed attempt',
		);
		await firstService.close();

		const restartedReceiver = await startReceiver(port);
		restartedReceiver.secrets.push(SECRET);
		const second = await startTestSandbox({ rateLimit: false, ...options });
		try {
			const secondClient = clientsFor(second.baseUrl, firstKeys).workspace;
			expect(
				(await secondClient.answers.list({ instanceId: instance.id })).data.map(
					(entry) => entry.messageId,
				),
			).toEqual([answeredBefore.id, answeredAfter.id]);
			await call(
				second.baseUrl,
				`/sandbox/instances/${instance.id}/messages/${answeredAfter.id}/tap`,
				{
					id: 'yes',
				},
			);
			await waitFor(() => restartedReceiver.received.length === 2, 10_000, 'both answers');
			expect(restartedReceiver.received.map((delivery) => delivery.path).sort()).toEqual([
				'/after',
				'/before',
			]);
			expect(restartedReceiver.received.every((delivery) => delivery.signature.valid)).toBe(true);
			await sleep(50);
			expect((await secondClient.answers.list({ instanceId: instance.id })).data).toEqual([]);
		} finally {
			await second.close();
			await restartedReceiver.close();
		}
	} finally {
		rmSync(directory, { recursive: true, force: true });
	}
});
