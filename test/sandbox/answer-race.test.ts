/**
 * An answer reaches only the wait that asked for it (issue 33, finding 2), in the sandbox through real HTTP. A
 * registration made before its question (`to`, pending) is bound by the send that names it, in the same step: a
 * message received before the question answers nothing and goes to webhooks as usual; the first one after it
 * answers the registration and goes to webhooks marked `answeredQuestion` (a trigger skips it). A registration made
 * after its question (`messageId`) still answers with a message received in between; one still held in a burst is
 * taken out of it, so that the burst does not deliver it too. An answer found n8n's execution still running (409: it is
 * saved as waiting just after the question is sent) is delivered again; a 409 that persists ends the registration.
 */
import { ApiError } from '../../src/client';
import { startService, type TestService } from '../support/nodes';
import { sleep, startReceiver, waitFor, type Receiver } from '../support/sandbox';

const SECRET = 'b'.repeat(32);
const CONTACT = '+14155550191';
const OTHER = '+14155550192';

let service: TestService;
let receiver: Receiver;
let instanceId: string;
/** The sandbox's clock: real time, unless a test holds it. */
let heldAt: number | undefined;

beforeAll(async () => {
	service = await startService({
		now: () => heldAt ?? Date.now(),
		webhooks: { maxAttempts: 8, retryBaseMs: 20 },
	});
	receiver = await startReceiver();
	receiver.secrets.push(SECRET);
	instanceId = (await service.connectedInstance('Answer race')).id;
});
afterAll(async () => {
	await service.close();
	await receiver.close();
});

const at = (path: string) => receiver.received.filter((delivery) => delivery.path === `/${path}`);
const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
const write = (from: string, text: string) => service.inbound(instanceId, from, text);

async function webhook(path: string, gather?: { quietSeconds: number }) {
	const created = await service.client.webhooks.create({
		body: {
			url: `${receiver.url}/${path}`,
			events: ['message.received'],
			...(gather ? { gather } : {}),
		},
	});
	receiver.secrets.push(created.secret);
	return created;
}

const registration = (path: string, question: { to: string } | { messageId: string }) =>
	service.client.answers.register({
		instanceId,
		body: {
			...question,
			reference: `question-${path}`,
			accepts: ['text'],
			url: `${receiver.url}/${path}`,
			secret: SECRET,
			expiresAt: inMinutes(5),
		},
	});

/** The `message.received` deliveries of a message at a path (alone, or in a gathered event). */
const deliveredAt = (path: string, messageId: string) =>
	at(path).flatMap((delivery) => {
		const data = delivery.event.data as { id?: string; messages?: Array<{ id: string }> };
		return [data, ...(data.messages ?? [])].filter((message) => message.id === messageId);
	});

it('registered before its question and bound by the send: the answer goes to the wait, marked for webhooks', async () => {
	const hook = await webhook('race-webhook');
	try {
		const pending = await registration('race-answer', { to: CONTACT });
		expect(pending).toMatchObject({
			messageId: null,
			status: 'pending',
			reference: 'question-race-answer',
		});

		// Before the question: not an answer.
		const early = await write(CONTACT, 'hello?');
		const question = await service.client.messages.sendText({
			instanceId,
			body: { to: CONTACT, text: 'Approve the refund?', answerRegistrationId: pending.id },
		});
		expect(await service.client.answers.get({ instanceId, answerId: pending.id })).toMatchObject({
			messageId: question.id,
			status: 'waiting',
		});
		// The first message after the question, at once: the answer.
		const answer = await write(CONTACT, 'yes');

		const [delivered] = await waitFor(
			() => at('race-answer').length > 0 && at('race-answer'),
			10_000,
			'the answer',
		);
		expect(delivered.signature.valid).toBe(true);
		expect(delivered.event.data).toMatchObject({
			registrationId: pending.id,
			messageId: question.id,
			answerMessageId: answer.id,
			reference: 'question-race-answer',
			answer: { type: 'text', text: 'yes' },
		});
		const [earlyEvent, answerEvent] = await waitFor(
			() => {
				const both = [
					deliveredAt('race-webhook', early.id)[0],
					deliveredAt('race-webhook', answer.id)[0],
				];
				return both.every(Boolean) && both;
			},
			10_000,
			'both messages at the webhook',
		);
		expect(earlyEvent).not.toHaveProperty('answeredQuestion');
		expect(answerEvent).toMatchObject({
			answeredQuestion: { registrationId: pending.id, messageId: question.id },
		});
	} finally {
		await service.client.webhooks.delete({ webhookId: hook.id });
	}
});

it('a send names a pending registration of its own chat once; a registration names its question one way', async () => {
	const pending = await registration('refused', { to: CONTACT });
	const refused = async (run: () => Promise<unknown>) => {
		const error = await run().then(
			() => undefined,
			(thrown: unknown) => thrown,
		);
		expect(error).toBeInstanceOf(ApiError);
		return error as ApiError;
	};
	const elsewhere = await refused(() =>
		service.client.messages.sendText({
			instanceId,
			body: { to: OTHER, text: 'Approve?', answerRegistrationId: pending.id },
		}),
	);
	expect(elsewhere).toMatchObject({ status: 409, code: 'other_chat' });
	expect(elsewhere.message).toContain('body.to');

	await service.client.messages.sendText({
		instanceId,
		body: { to: CONTACT, text: 'Approve?', answerRegistrationId: pending.id },
	});
	const again = await refused(() =>
		service.client.messages.sendText({
			instanceId,
			body: { to: CONTACT, text: 'Approve now?', answerRegistrationId: pending.id },
		}),
	);
	expect(again).toMatchObject({ status: 409, code: 'answer_registration_bound' });
	expect(again.message).toContain('body.answerRegistrationId');

	const both = await refused(() =>
		registration('both', { to: CONTACT, messageId: 'msg_x' } as { to: string }),
	);
	expect(both).toMatchObject({ status: 400, code: 'validation_failed' });
	expect(both.message).toContain('body.messageId');
	await service.client.answers.delete({ instanceId, answerId: pending.id });
});

it('registered after its question: an answer held in a burst goes to the wait only, not in the burst too', async () => {
	const hook = await webhook('burst', { quietSeconds: 1 });
	// The clock held while the answer waits in its burst: a registration slower than the quiet period (a loaded
	// machine, through Prism) came after the burst had gone.
	heldAt = Date.now();
	try {
		const question = await service.client.messages.sendText({
			instanceId,
			body: { to: OTHER, text: 'Which slot?' },
		});
		const answer = await write(OTHER, 'the morning one');
		const late = await registration('late-answer', { messageId: question.id });
		await waitFor(() => at('late-answer').length > 0, 10_000, 'the answer');
		expect(at('late-answer')[0].event.data).toMatchObject({ answerMessageId: answer.id });
		heldAt = undefined;

		// A later message of the chat comes in a burst of its own: the answer's burst is over by then.
		const after = await write(OTHER, 'thanks');
		await waitFor(() => deliveredAt('burst', after.id).length > 0, 15_000, 'the later burst');
		expect(deliveredAt('burst', answer.id)).toEqual([]);
		expect(await service.client.messages.get({ instanceId, messageId: answer.id })).toMatchObject({
			answeredQuestion: { registrationId: late.id, messageId: question.id },
		});
	} finally {
		heldAt = undefined;
		await service.client.webhooks.delete({ webhookId: hook.id });
	}
});

it('a 409 at first (the execution not saved as waiting yet) is retried; a 409 that persists ends the registration', async () => {
	const respond = receiver.respond;
	receiver.respond = (delivery) =>
		delivery.path === '/ended' || (delivery.path === '/busy' && delivery.attempt <= 2) ? 409 : 200;
	try {
		for (const [path, to] of [
			['busy', CONTACT],
			['ended', OTHER],
		] as const) {
			const pending = await registration(path, { to });
			await service.client.messages.sendText({
				instanceId,
				body: { to, text: 'Approve?', answerRegistrationId: pending.id },
			});
			await write(to, 'yes');
		}
		const gone = async (path: string) =>
			(await service.client.answers.list({ instanceId })).data.every(
				(entry) => entry.reference !== `question-${path}`,
			);
		await waitFor(
			() => at('busy').some((delivery) => delivery.attempt === 3),
			10_000,
			'the third attempt',
		);
		await waitFor(() => at('ended').length >= 4, 10_000, 'four attempts');
		const deadline = Date.now() + 10_000;
		while (!((await gone('busy')) && (await gone('ended'))) && Date.now() < deadline)
			await sleep(20);
		expect(await gone('busy')).toBe(true);
		expect(await gone('ended')).toBe(true);
		expect(at('busy').map((delivery) => delivery.attempt)).toEqual([1, 2, 3]);
		expect(at('ended').map((delivery) => delivery.attempt)).toEqual([1, 2, 3, 4]);
	} finally {
		receiver.respond = respond;
	}
});
