import { MAX_ANSWER_WAIT_DAYS } from '../../../src/client/resources/answers';
import type { api } from '../../../src/client/api';
import { catchUp, pruneExpired, requireAnswer, scheduleExpiry } from '../../channel/answers';
import type { SandboxCore } from '../../core';
import { conflict, validationFailed } from '../../errors';
import { newId, type AnswerRecord } from '../../store/store';
import { chatIdOf } from '../../channel/chat-ids';
import { checkUrl, instant, paginate, type ResourceHandlers } from './context';
import { requireInstance, requireMessage } from '../../channel/instance-records';
import { recipientNamed, requirePerson } from '../../channel/people';

/** Registrations waiting for the answer to a message; matching and delivery are in sandbox/channel/answers.ts. */

type Answers = typeof api.workspace.answers;

const presentAnswer = (registration: AnswerRecord) => ({
	id: registration.id,
	instanceId: registration.instanceId,
	messageId: registration.messageId,
	chatId: registration.chatId,
	accepts: registration.accepts,
	status: registration.delivery
		? 'answered'
		: registration.messageId === null
			? 'pending'
			: 'waiting',
	...(registration.reference !== undefined ? { reference: registration.reference } : {}),
	expiresAt: registration.expiresAt,
	createdAt: registration.createdAt,
	...(registration.allowedToAnswer ? { allowedToAnswer: [...registration.allowedToAnswer] } : {}),
	...(registration.afterAnswer ? { afterAnswer: { ...registration.afterAnswer } } : {}),
});

/** Who may answer, as received messages name them in `from` (a number, or a hidden one's contact id), each once. */
function allowedPeople(
	core: SandboxCore,
	workspaceId: string,
	instanceId: string,
	people: string[],
): string[] {
	const instance = requireInstance(core, workspaceId, instanceId);
	const named = people.map(
		(person, index) =>
			requirePerson(core, instance, person, `body.allowedToAnswer[${index}]`)?.from ?? person,
	);
	return [...new Set(named)];
}

/** A live registration: expired ones are dropped first, even between timers. */
function requireRegistration(
	core: SandboxCore,
	workspaceId: string,
	instanceId: string,
	answerId: string,
): AnswerRecord {
	pruneExpired(core, workspaceId);
	return requireAnswer(core, workspaceId, instanceId, answerId);
}

/** The question: a message this instance sent (`messageId`), or, pending, the chat it will be sent to (`to`). */
function questionOf(
	core: SandboxCore,
	workspaceId: string,
	instanceId: string,
	body: { messageId?: string; to?: string },
): { messageId: string | null; chatId: string } {
	if ((body.messageId === undefined) === (body.to === undefined)) {
		throw validationFailed([
			{ field: 'body.messageId', message: 'name either messageId (sent) or to (not sent yet)' },
		]);
	}
	if (body.to !== undefined) {
		const instance = requireInstance(core, workspaceId, instanceId);
		return {
			messageId: null,
			chatId: chatIdOf(recipientNamed(core, instance, body.to, 'body.to')),
		};
	}
	const message = requireMessage(core, workspaceId, instanceId, body.messageId as string);
	if (message.direction !== 'outbound') {
		throw conflict(
			'not_outbound',
			`Message ${message.id} was received, not sent by this instance; only a sent message can be answered`,
		);
	}
	return { messageId: message.id, chatId: message.chatId };
}

export const answerHandlers: ResourceHandlers<Answers> = {
	register: ({ core, workspaceId, params, body }) => {
		const question = questionOf(core, workspaceId, params.instanceId, body);
		checkUrl(body.url, core.outbound.deliveries.policy);
		const now = core.now();
		const expiresAt = instant(body.expiresAt) as string;
		const latest = now.getTime() + MAX_ANSWER_WAIT_DAYS * 24 * 60 * 60 * 1000;
		if (Date.parse(expiresAt) <= now.getTime() || Date.parse(expiresAt) > latest) {
			throw validationFailed([
				{
					field: 'body.expiresAt',
					message: `must be in the future and at most ${MAX_ANSWER_WAIT_DAYS} days ahead`,
				},
			]);
		}
		const registration = core.store.insert('answers', {
			id: newId('ans'),
			workspaceId,
			instanceId: params.instanceId,
			...question,
			accepts: [...new Set(body.accepts)],
			url: body.url,
			secret: body.secret,
			...(body.reference !== undefined ? { reference: body.reference } : {}),
			expiresAt,
			createdAt: now.toISOString(),
			delivery: null,
			...(body.allowedToAnswer
				? {
						allowedToAnswer: allowedPeople(
							core,
							workspaceId,
							params.instanceId,
							body.allowedToAnswer,
						),
					}
				: {}),
			...(body.afterAnswer
				? {
						afterAnswer: {
							editQuestion: body.afterAnswer.editQuestion === true,
							removeButtons: body.afterAnswer.removeButtons === true,
						},
					}
				: {}),
		});
		scheduleExpiry(core, registration.id);
		if (registration.messageId !== null) catchUp(core, registration);
		return presentAnswer(registration);
	},

	list: ({ core, workspaceId, params, query }) => {
		const instance = requireInstance(core, workspaceId, params.instanceId);
		pruneExpired(core, workspaceId);
		const registrations = core.store.all(
			'answers',
			(record) => record.workspaceId === workspaceId && record.instanceId === instance.id,
		);
		return paginate(registrations, query, presentAnswer);
	},

	get: ({ core, workspaceId, params }) =>
		presentAnswer(requireRegistration(core, workspaceId, params.instanceId, params.answerId)),

	delete: ({ core, workspaceId, params }) => {
		const registration = requireRegistration(core, workspaceId, params.instanceId, params.answerId);
		core.store.remove('answers', registration.id);
	},
};
