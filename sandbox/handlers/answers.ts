import { MAX_ANSWER_WAIT_DAYS } from '../../src/client/resources/answers';
import type { api } from '../../src/client/api';
import { catchUp, pruneExpired, scheduleExpiry } from '../answers';
import type { SandboxCore } from '../core';
import { conflict, validationFailed } from '../http';
import { newId, type AnswerRecord } from '../store';
import {
	checkUrl,
	instant,
	paginate,
	recordOfInstance,
	requireInstance,
	type ResourceHandlers,
} from './context';
import { requireMessage } from './messages';

/** Registrations waiting for the answer to a message; matching and delivery are in sandbox/answers.ts. */

type Answers = typeof api.workspace.answers;

const presentAnswer = (registration: AnswerRecord) => ({
	id: registration.id,
	instanceId: registration.instanceId,
	messageId: registration.messageId,
	chatId: registration.chatId,
	accepts: registration.accepts,
	status: registration.delivery ? 'answered' : 'waiting',
	expiresAt: registration.expiresAt,
	createdAt: registration.createdAt,
});

const requireAnswer = recordOfInstance('answers', 'Answer registration');

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

export const answerHandlers: ResourceHandlers<Answers> = {
	register: ({ core, workspaceId, params, body }) => {
		const message = requireMessage(core, workspaceId, params.instanceId, body.messageId);
		if (message.direction !== 'outbound') {
			throw conflict(
				'not_outbound',
				`Message ${message.id} was received, not sent by this instance; only a sent message can be answered`,
			);
		}
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
			instanceId: message.instanceId,
			messageId: message.id,
			chatId: message.chatId,
			accepts: [...new Set(body.accepts)],
			url: body.url,
			secret: body.secret,
			expiresAt,
			createdAt: now.toISOString(),
			delivery: null,
		});
		scheduleExpiry(core, registration.id);
		catchUp(core, registration);
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
