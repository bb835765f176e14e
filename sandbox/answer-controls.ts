import type { SandboxCore } from './core';
import { sendOutgoing } from './outgoing';
import { newId, type AnswerRecord, type MessageRecord } from './store';
import { presentMessage } from './handlers/present';

/**
 * What an answer registration may ask beyond "deliver the answer" (the contract, 2026-11-25): who may answer
 * (`allowedToAnswer`: anyone else's answer is refused, and they are told so in the chat, once per question), and
 * what becomes of the question once answered (`afterAnswer`: its text shows the outcome, its buttons or list
 * are removed). Both act after the received message has gone to webhooks, in the order the channel shows them.
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
	return chatId.endsWith('@g.us') ? chatId : `+${chatId.replace(/@s\.whatsapp\.net$/, '')}`;
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

/** "✅ Approve by +14155550181 at 2026-11-26 07:40 UTC", or the typed answer, quoted. */
function outcome(
	answer: { title: string | null; text: string | null },
	message: MessageRecord,
): string {
	const typed = [...(answer.text ?? '')];
	const what =
		answer.title ??
		`"${typed.length > QUOTED_ANSWER ? `${typed.slice(0, QUOTED_ANSWER - 1).join('')}…` : typed.join('')}"`;
	const at = `${message.createdAt.slice(0, 16).replace('T', ' ')} UTC`;
	return `✅ ${what} by ${message.from ?? 'someone'} at ${at}`;
}
