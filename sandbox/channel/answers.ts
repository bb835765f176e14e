import { ANSWER_EVENT } from '../../src/client/resources/answers';
import {
	closeQuestion,
	mayAnswer,
	noteAnswer,
	refuseAnswer,
	tellAnsweredAlready,
	type FollowUp,
} from './answer-controls';
import type { SandboxCore } from '../core';
import { envelope, newDelivery, type DeliveryKind } from '../delivery/delivery-engine';
import { recordOfInstance } from './instance-records';
import { conflict } from '../errors';
import type { AnswerRecord, MessageRecord } from '../store/store';

/**
 * One-shot answer registrations (the `answers` resource) at work: each received message is matched against
 * the registrations waiting in its chat; the first answer is delivered to the registration's URL, signed with
 * its secret and retried by the same delivery engine as webhooks, and then the registration is gone. It is also gone at its
 * expiry, and as soon as the receiver answers 404 or 410, or 409 again after retries: the waiting execution no longer
 * exists (n8n answers so for an execution that was deleted, cancelled or already resumed), so nothing stays
 * registered for a waiter that n8n will never tell us has left.
 */

type Received = Pick<
	MessageRecord,
	'id' | 'instanceId' | 'chatId' | 'direction' | 'from' | 'type' | 'content' | 'reply' | 'createdAt'
>;

/** Receiver statuses that mean the waiting side is gone for good. */
const RECEIVER_GONE = new Set([404, 410]);
/**
 * n8n answers 409 both for an execution that ended (cancelled, failed) and for one still running: the question is
 * sent before the execution is saved as waiting, so an answer at once can find it running. A 409 ends the
 * registration only from this attempt on, when the earlier ones' backoff (in the service, 10 s and more) has
 * given a running execution far longer than it takes to wait.
 */
const CONFLICT_FINAL_FROM_ATTEMPT = 4;
/** Expiry timers are set at most this far ahead (Node's timers hold up to about 24.8 days). */
const EXPIRY_CHECK_MS = 24 * 60 * 60 * 1000;

/** What a received message answers, for this registration, if anything. */
export function answerOf(registration: AnswerRecord, message: Received) {
	if (
		// Pending: its question is not sent yet, so nothing received can answer it.
		registration.messageId === null ||
		message.direction !== 'inbound' ||
		message.instanceId !== registration.instanceId ||
		message.chatId !== registration.chatId
	) {
		return undefined;
	}
	const text = typeof message.content.text === 'string' ? message.content.text : null;
	if (message.reply) {
		// A tap answers only the message that offered it, and only when taps are asked for.
		if (!registration.accepts.includes('reply')) return undefined;
		if (message.reply.toMessageId !== registration.messageId) return undefined;
		const { type, id, title } = message.reply;
		return { type, id, title, text: text ?? title };
	}
	if (!registration.accepts.includes('text') || text === null) return undefined;
	return { type: 'text', id: null, title: null, text };
}

export function isExpired(registration: AnswerRecord, now: Date): boolean {
	return Date.parse(registration.expiresAt) <= now.getTime();
}

/**
 * A message just received, before it is delivered to webhooks: every waiting registration it answers takes it,
 * and the message is marked with the first (`answeredQuestion`), so that webhooks' receivers can tell an answer
 * that went to a waiting workflow from a message for them. An answer from someone a registration does not allow
 * is refused (marked too, with `refused`). Returns what is to follow once the message went to webhooks: the
 * note to those refused, the question's edit (answer-controls.ts).
 */
export function takeAnswers(core: SandboxCore, message: MessageRecord): FollowUp[] {
	const followUps: FollowUp[] = [];
	for (const registration of core.store.all(
		'answers',
		(record) => record.workspaceId === message.workspaceId && record.delivery === null,
	)) {
		if (isExpired(registration, core.now()) || !answerOf(registration, message)) continue;
		const followUp = mayAnswer(registration, message.from)
			? take(core, registration, message)
			: refuseAnswer(core, registration, message);
		if (followUp) followUps.push(followUp);
	}
	const late = tellAnsweredAlready(core, message);
	if (late) followUps.push(late);
	return followUps;
}

/**
 * A message received between the question and its registration (one registered with `messageId`, after the
 * send) answers it at once. It was delivered to webhooks unmarked already, which only registering first (`to`,
 * bound by the send) avoids; one still held in a burst is taken out of it, so that it reaches only the wait.
 */
export function catchUp(core: SandboxCore, registration: AnswerRecord): void {
	if (!registration.messageId) return;
	// The chat's messages after the question, from the message index: what follows it, not every message stored.
	const chat = core.store.messageIndex.messagesOf(registration.instanceId, registration.chatId);
	const after = { id: registration.messageId, order: Number.POSITIVE_INFINITY };
	for (const { message } of chat.walk(false, after)) {
		// Those not allowed were delivered to webhooks already: too late to tell them or to mark the message.
		if (!answerOf(registration, message) || !mayAnswer(registration, message.from)) continue;
		const followUp = take(core, registration, message);
		core.deliveries.gathering.withdraw(message);
		followUp?.();
		return;
	}
}

/** Registered with `to`: a send to its chat names it, and that message becomes its question. */
export function requirePendingQuestion(
	core: SandboxCore,
	workspaceId: string,
	instanceId: string,
	registrationId: string,
	chatId: string,
): AnswerRecord {
	pruneExpired(core, workspaceId);
	const registration = requireAnswer(core, workspaceId, instanceId, registrationId);
	if (registration.messageId !== null) {
		throw conflict(
			'answer_registration_bound',
			`body.answerRegistrationId: registration ${registration.id} already waits for message ${registration.messageId}`,
		);
	}
	if (registration.chatId !== chatId) {
		throw conflict(
			'other_chat',
			`body.to: registration ${registration.id} waits for an answer in chat ${registration.chatId}, not ${chatId}`,
		);
	}
	return registration;
}

export const requireAnswer = recordOfInstance('answers', 'Answer registration');

/**
 * Answers the registration with the message (an answer, from someone allowed), marks the message with the first,
 * and returns what `afterAnswer` asks of the question.
 */
function take(
	core: SandboxCore,
	registration: AnswerRecord,
	message: MessageRecord,
): FollowUp | undefined {
	const answer = answerOf(registration, message);
	if (!answer) return undefined;
	deliverAnswer(core, registration, message, answer);
	noteAnswer(core, registration, answer, message);
	// The first registration that takes it names it, even when another refused it first.
	if (!message.answeredQuestion || message.answeredQuestion.refused) {
		message.answeredQuestion = {
			registrationId: registration.id,
			messageId: registration.messageId as string,
		};
	}
	return closeQuestion(core, registration, answer, message);
}

function deliverAnswer(
	core: SandboxCore,
	registration: AnswerRecord,
	message: Received,
	answer: NonNullable<ReturnType<typeof answerOf>>,
): void {
	const event = envelope(
		registration.workspaceId,
		ANSWER_EVENT,
		{
			registrationId: registration.id,
			instanceId: registration.instanceId,
			chatId: registration.chatId,
			messageId: registration.messageId,
			answer,
			from: message.from,
			answeredAt: message.createdAt,
			answerMessageId: message.id,
			reference: registration.reference ?? null,
		},
		core.now(),
	);
	registration.delivery = newDelivery(event);
	core.engine.schedule(answerDeliveries(core), registration.id, registration.delivery);
}

/** An answer goes to its registration's URL; once delivered, refused for good or expired, it is gone. */
function answerDeliveries(core: SandboxCore): DeliveryKind {
	return {
		find: (id) => {
			const registration = core.store.get('answers', id);
			if (!registration?.delivery) return undefined;
			const receiver = isExpired(registration, core.now()) ? 'expired' : registration;
			return { delivery: registration.delivery, receiver };
		},
		final: (status, attempt) =>
			RECEIVER_GONE.has(status) || (status === 409 && attempt >= CONFLICT_FINAL_FROM_ATTEMPT),
		ended: (id) => end(core, id),
	};
}

function end(core: SandboxCore, registrationId: string): void {
	core.store.remove('answers', registrationId);
	core.onBackgroundChange();
}

/** Removes the registration when it expires (checked at least daily, for long waits). */
export function scheduleExpiry(core: SandboxCore, registrationId: string): void {
	const registration = core.store.get('answers', registrationId);
	if (!registration) return;
	const remaining = Date.parse(registration.expiresAt) - core.now().getTime();
	core.scheduler.after(Math.min(Math.max(remaining, 0), EXPIRY_CHECK_MS), () => {
		const current = core.store.get('answers', registrationId);
		if (!current) return;
		if (isExpired(current, core.now())) end(core, current.id);
		else scheduleExpiry(core, registrationId);
	});
}

/** Drops the expired registrations of a workspace (a list shows only live ones, even between timers). */
export function pruneExpired(core: SandboxCore, workspaceId: string): void {
	for (const registration of core.store.all(
		'answers',
		(record) => record.workspaceId === workspaceId && isExpired(record, core.now()),
	)) {
		core.store.remove('answers', registration.id);
	}
}

/** After a restart: expiries are watched again, and answers not yet delivered are sent when due. */
export function resumeAnswers(core: SandboxCore): void {
	for (const registration of core.store.all('answers')) {
		scheduleExpiry(core, registration.id);
		const { delivery } = registration;
		if (delivery) core.engine.schedule(answerDeliveries(core), registration.id, delivery);
	}
}
