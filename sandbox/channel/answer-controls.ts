import type { SandboxCore } from '../core';
import { sendOutgoing } from './outgoing';
import { newId, type AnswerRecord, type MessageRecord } from '../store/store';
import { presentMessage } from '../present';
import { numberOfPersonChatId } from '../../src/client/chat-ids';

/**
 * What an answer registration may ask beyond "deliver the answer" (the contract, 2026-11-25): who may answer
 * (`allowedToAnswer`: anyone else's answer is refused, and they are told so in the chat, once per question), and
 * what becomes of the question once answered (`afterAnswer`: its text shows the outcome, its buttons or list
 * are removed). Both act after the received message has gone to webhooks, in the order the channel shows them.
 * A tap on a question answered already (its buttons kept) is answered too: what answered it, by whom and when,
 * once per person, so that no one believes their late tap decided.
 */

/** Follow-ups of a received message, run once it has been delivered to webhooks. */
export type FollowUp = () => void;

/** At most this many people are told per question: past it, answers from others are still refused, silently. */
export const MAX_TOLD = 20;
/** How many allowed numbers the note names before "and N more". */
const NAMED_IN_NOTE = 3;
/** How much of a typed answer the edited question quotes. */
const QUOTED_ANSWER = 100;

export function mayAnswer(registration: AnswerRecord, from: string | null): boolean {
	const allowed = registration.allowedToAnswer;
	return allowed === undefined || (from !== null && allowed.includes(from));
}

/**
 * An answer from someone not allowed: the message is marked (so receivers of webhooks leave it alone, as they
 * do a taken answer) and, the first time this person tries, they are told who can answer.
 */
export function refuseAnswer(
	core: SandboxCore,
	registration: AnswerRecord,
	message: MessageRecord,
): FollowUp | undefined {
	message.answeredQuestion ??= {
		registrationId: registration.id,
		messageId: registration.messageId as string,
		refused: true,
	};
	const told = registration.told ?? [];
	const from = message.from;
	if (from === null || told.includes(from) || told.length >= MAX_TOLD) return undefined;
	registration.told = [...told, from];
	return () => tellNotAllowed(core, registration, message.id);
}

function tellNotAllowed(core: SandboxCore, registration: AnswerRecord, refusedId: string): void {
	const instance = core.store.get('instances', registration.instanceId);
	if (!instance || instance.status !== 'connected') return;
	const allowed = registration.allowedToAnswer ?? [];
	const named = allowed.slice(0, NAMED_IN_NOTE).join(', ');
	const more = allowed.length - NAMED_IN_NOTE;
	sendOutgoing(core, {
		id: newId('msg'),
		workspaceId: registration.workspaceId,
		instance,
		to: recipientOf(registration.chatId),
		type: 'text',
		content: {
			text: `Only ${named}${more > 0 ? ` and ${more} more` : ''} can answer this.`,
			quotedMessageId: refusedId,
		},
	});
}

/** A chat id as a send names it: a group's id, or a person's number. */
function recipientOf(chatId: string): string {
	return numberOfPersonChatId(chatId) ?? chatId;
}

/** Once answered, what `afterAnswer` asks of the question, if anything. */
export function closeQuestion(
	core: SandboxCore,
	registration: AnswerRecord,
	answer: { id: string | null; title: string | null; text: string | null },
	message: MessageRecord,
): FollowUp | undefined {
	const { editQuestion, removeButtons } = registration.afterAnswer ?? {};
	if (!editQuestion && !removeButtons) return undefined;
	const question = core.store.get('messages', registration.messageId as string);
	if (!question) return undefined;
	// Closed at once, so that a second tap, even one right after, finds no buttons.
	if (removeButtons) question.closedByAnswerAt = message.createdAt;
	return () => {
		const text = typeof question.content.text === 'string' ? question.content.text : '';
		const shown = editQuestion ? `${text}\n\n${outcome(answer, message)}` : text;
		const now = core.now().toISOString();
		if (removeButtons && (question.type === 'buttons' || question.type === 'list')) {
			question.type = 'text';
			question.content = { text: shown };
		} else {
			question.content = { ...question.content, text: shown };
		}
		question.editedAt = now;
		question.updatedAt = now;
		core.emit(question.workspaceId, 'message.edited', presentMessage(question), {
			instanceId: question.instanceId,
		});
	};
}

/**
 * "Decline, by +14155550181 at 2026-11-26 07:40 UTC", or the typed answer, quoted: no mark that reads as approval,
 * since the answer may be a refusal.
 */
function answeredWords(answered: { what: string; from: string | null; at: string }): string {
	return `${answered.what}, by ${answered.from ?? 'someone'} at ${answered.at.slice(0, 16).replace('T', ' ')} UTC`;
}

/** The answer in words: a tap's title, or the typed text, quoted (at most QUOTED_ANSWER characters). */
function answerWhat(answer: { title: string | null; text: string | null }): string {
	const typed = [...(answer.text ?? '')];
	return (
		answer.title ??
		`"${typed.length > QUOTED_ANSWER ? `${typed.slice(0, QUOTED_ANSWER - 1).join('')}…` : typed.join('')}"`
	);
}

function outcome(
	answer: { title: string | null; text: string | null },
	message: MessageRecord,
): string {
	return `Answered: ${answeredWords({ what: answerWhat(answer), from: message.from, at: message.createdAt })}`;
}

/** Keeps on the question what answered it, for a late tap (`tellAnsweredAlready`). */
export function noteAnswer(
	core: SandboxCore,
	registration: AnswerRecord,
	answer: { title: string | null; text: string | null },
	message: MessageRecord,
): void {
	const question = core.store.get('messages', registration.messageId as string);
	if (!question || question.answeredWith) return;
	question.answeredWith = { what: answerWhat(answer), from: message.from, at: message.createdAt };
}

/**
 * A tap on a question answered already, which no registration took: the person is told, quoting the tap, what
 * answered it, once per person and question (at most MAX_TOLD people).
 */
export function tellAnsweredAlready(
	core: SandboxCore,
	message: MessageRecord,
): FollowUp | undefined {
	if (!message.reply || message.answeredQuestion || message.from === null) return undefined;
	const question = core.store.get('messages', message.reply.toMessageId);
	const answered = question?.answeredWith;
	if (!question || !answered) return undefined;
	const told = answered.told ?? [];
	if (told.includes(message.from) || told.length >= MAX_TOLD) return undefined;
	answered.told = [...told, message.from];
	return () => {
		const instance = core.store.get('instances', question.instanceId);
		if (!instance || instance.status !== 'connected') return;
		sendOutgoing(core, {
			id: newId('msg'),
			workspaceId: question.workspaceId,
			instance,
			to: recipientOf(question.chatId),
			type: 'text',
			content: {
				text: `This was already answered: ${answeredWords(answered)}.`,
				quotedMessageId: message.id,
			},
		});
	};
}
