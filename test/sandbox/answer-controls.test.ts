/* eslint-disable @n8n/community-nodes/no-restricted-imports -- tests run in plain Node, never inside n8n */
/**
 * What an answer registration may ask beyond the answer (the contract, 2026-11-25), in the sandbox through real
 * HTTP: `allowedToAnswer` (in a group, a member not listed is refused: the wait stays open, the message is marked
 * `refused` for webhooks' receivers, and the member is told once who can answer), and `afterAnswer` (the question
 * shows the outcome, its buttons are gone in GET message, `message.edited` is emitted, a later tap is refused);
 * all of it kept across a restart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Sandbox } from '../../sandbox/server';
import {
	clientsFor,
	connectedInstance,
	raw,
	receiveAllWorkspaceEvents,
	sleep,
	startReceiver,
	startTestSandbox,
	waitFor,
	type Receiver,
	type SandboxKeys,
} from '../support/sandbox';

const SECRET = 'b'.repeat(32);
const INSTANCE = '+14155550160';
const MANAGER = '+14155550161';
const MEMBER = '+14155550162';

const directory = mkdtempSync(join(tmpdir(), 'answer-controls-'));
const dataFile = join(directory, 'state.json');
let sandbox: Sandbox;
let receiver: Receiver;
afterAll(async () => {
	await sandbox?.close();
	await receiver?.close();
	rmSync(directory, { recursive: true, force: true });
});

/** The keys of the first start (a restart keeps them, but tells them no more). */
let savedKeys: SandboxKeys;
const keys = () => savedKeys;
const client = () => clientsFor(sandbox.baseUrl, keys()).workspace;
const tap = (instanceId: string, messageId: string, id: string, from: string) =>
	raw(sandbox.baseUrl, 'POST', `/sandbox/instances/${instanceId}/messages/${messageId}/tap`, {
		key: keys().workspace,
		body: { id, from },
	});
const events = (type: string) =>
	receiver.received.filter((delivery) => delivery.event.type === type);
async function restart() {
	await sandbox.close();
	sandbox = await startTestSandbox({ dataFile, rateLimit: false });
}
const answers = () => receiver.received.filter((delivery) => delivery.path === '/answer');

/**
 * A group of the manager and the member on the instance, an answer registration there (with `registration`'s
 * options) and its question, buttons Approve and Decline.
 */
async function askInGroup(
	instanceId: string,
	{ subject, text, registration: options }: { subject: string; text: string; registration: object },
) {
	const group = await client().groups.create({
		instanceId,
		body: { subject, participants: [MANAGER, MEMBER] },
	});
	const registration = await client().answers.register({
		instanceId,
		body: {
			to: group.id,
			accepts: ['reply'],
			url: `${receiver.url}/answer`,
			secret: SECRET,
			expiresAt: new Date(Date.now() + 10 * 60_000).toISOString(),
			...options,
		},
	});
	const question = await client().messages.sendButtons({
		instanceId,
		body: {
			to: group.id,
			text,
			buttons: [
				{ id: 'approve', title: 'Approve' },
				{ id: 'decline', title: 'Decline' },
			],
			answerRegistrationId: registration.id,
		},
	});
	return { group, registration, question };
}

it('in a group, takes only a listed member’s answer, tells others once, then closes the question', async () => {
	sandbox = await startTestSandbox({ dataFile, rateLimit: false });
	savedKeys = sandbox.keys as SandboxKeys;
	receiver = await startReceiver();
	receiver.secrets.push(SECRET);
	await receiveAllWorkspaceEvents({
		sandbox,
		keys: keys(),
		clients: clientsFor(sandbox.baseUrl, keys()),
		receiver,
	});
	const instance = await connectedInstance(sandbox, 'Approvals', INSTANCE);
	const { group, registration, question } = await askInGroup(instance.id, {
		subject: 'Refunds',
		text: 'Refund $120 for order 1042?',
		registration: {
			// The manager named by their chat id: read as their number.
			allowedToAnswer: [`${MANAGER.slice(1)}@s.whatsapp.net`],
			afterAnswer: { editQuestion: true, removeButtons: true },
		},
	});
	expect(registration).toMatchObject({
		allowedToAnswer: [MANAGER],
		afterAnswer: { editQuestion: true, removeButtons: true },
	});

	// A member not listed taps: refused, marked, told who can answer, and the wait stays open.
	const refusedTap = async (attempt: number) => {
		const refused = await tap(instance.id, question.id, 'approve', MEMBER);
		expect(refused.status).toBe(201);
		const { id } = refused.body as { id: string };
		const received = await waitFor(
			() => events('message.received').find((delivery) => delivery.event.data.id === id),
			10_000,
			`the member's tap ${attempt} at the webhook`,
		);
		expect(received.event.data.answeredQuestion).toEqual({
			registrationId: registration.id,
			messageId: question.id,
			refused: true,
		});
	};
	const notes = () =>
		events('message.sent').filter(
			(delivery) =>
				delivery.event.data.chatId === group.id && delivery.event.data.id !== question.id,
		);
	await refusedTap(1);
	const note = await waitFor(() => notes()[0], 10_000, 'the note to the member');
	expect(note.event.data.content).toMatchObject({ text: `Only ${MANAGER} can answer this.` });

	// Kept across a restart: the member was told already, so a second try is refused without a second note.
	await restart();
	await refusedTap(2);
	const waiting = await client().answers.get({
		instanceId: instance.id,
		answerId: registration.id,
	});
	expect(waiting.status).toBe('waiting');
	await sleep(300);
	expect(answers()).toEqual([]);
	// At least once: a delivery may come again after the restart, so the notes are counted by message.
	expect(new Set(notes().map((delivery) => delivery.event.data.id)).size).toBe(1);

	// The manager taps: the answer is theirs, and the question shows it without buttons.
	expect((await tap(instance.id, question.id, 'decline', MANAGER)).status).toBe(201);
	const answer = await waitFor(() => answers()[0], 10_000, 'the manager’s answer');
	expect(answer.event.data).toMatchObject({ from: MANAGER, answer: { id: 'decline' } });
	const edited = await waitFor(() => events('message.edited')[0], 10_000, 'the edited question');
	expect(edited.event.data).toMatchObject({ id: question.id, type: 'text' });
	const shown = await client().messages.get({ instanceId: instance.id, messageId: question.id });
	expect(shown.type).toBe('text');
	expect(shown.content).toEqual({
		text: expect.stringMatching(
			new RegExp(
				`^Refund \\$120 for order 1042\\?\\n\\nAnswered: Decline, by \\${MANAGER} at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC$`,
			),
		),
	});
	expect(shown.editedAt).toEqual(expect.any(String));

	// Kept across a restart: the closed question refuses a second tap, naming why.
	await restart();
	const again = await tap(instance.id, question.id, 'approve', MANAGER);
	expect(again.status).toBe(409);
	expect(again.body).toMatchObject({ error: { code: 'question_answered' } });
});

it('a late tap on a question answered already (buttons kept) is told what answered it, once per person', async () => {
	// After the restarts above the sandbox tells its keys no more: the saved ones.
	const restarted = { baseUrl: sandbox.baseUrl, keys: keys() } as unknown as Sandbox;
	const instance = await connectedInstance(restarted, 'Late taps', '+14155550163');
	const { group, registration, question } = await askInGroup(instance.id, {
		subject: 'Late',
		text: 'Refund $80 for order 2001?',
		registration: { afterAnswer: { editQuestion: true } },
	});
	const notes = () =>
		events('message.sent').filter((delivery) =>
			String((delivery.event.data.content as { text?: unknown }).text).startsWith(
				'This was already answered',
			),
		);
	expect((await tap(instance.id, question.id, 'decline', MANAGER)).status).toBe(201);
	await waitFor(
		() => answers().find((delivery) => delivery.event.data.registrationId === registration.id),
		10_000,
		'the answer',
	);

	const late = await tap(instance.id, question.id, 'approve', MEMBER);
	expect(late.status).toBe(201);
	const note = await waitFor(() => notes()[0], 10_000, 'the note to the late tap');
	expect(note.event.data.content).toEqual({
		text: expect.stringMatching(
			new RegExp(
				`^This was already answered: Decline, by \\${MANAGER} at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\.$`,
			),
		),
		quotedMessageId: (late.body as { id: string }).id,
	});
	expect(note.event.data.chatId).toBe(group.id);

	// Once per person: the member's second late tap passes without a note; the manager's own is told.
	await tap(instance.id, question.id, 'approve', MEMBER);
	await tap(instance.id, question.id, 'approve', MANAGER);
	await waitFor(() => notes()[1], 10_000, 'the note to the manager');
	await sleep(300);
	expect(notes()).toHaveLength(2);
});

it('refuses a registration whose allowedToAnswer names no person, naming the field', async () => {
	const instance = await client().instances.create({ body: { name: 'Fields' } });
	for (const allowedToAnswer of [['12345'], ['team@g.us'], []]) {
		const response = await raw(
			sandbox.baseUrl,
			'POST',
			`/api/v1/instances/${instance.id}/answers`,
			{
				key: keys().workspace,
				body: {
					to: MANAGER,
					accepts: ['reply'],
					url: `${receiver.url}/answer`,
					secret: SECRET,
					expiresAt: new Date(Date.now() + 60_000).toISOString(),
					allowedToAnswer,
				},
			},
		);
		expect(response.status).toBe(400);
		expect(JSON.stringify(response.body)).toContain('allowedToAnswer');
	}
});
