import { createHmac } from 'crypto';
import type { IDataObject, IExecuteFunctions, IWebhookFunctions } from 'n8n-workflow';

import { Answer } from '../../../../../src/client/resources/answers';
import { z } from '../../../../../src/client/zod';
import { CREDENTIAL_NAMES } from '../../../../shared/connections';

/**
 * What "Send and Wait for Response" and its resume webhook share: the secret that signs the answer's delivery,
 * the query parameter that names the question in the resume URL, and the output in both outcomes.
 */

/**
 * The question's reference (the registration's `reference`, echoed in its answer), carried in the resume URL that
 * n8n signs, so no one can swap it. The question is registered before it is sent, so its message id is not known yet.
 */
export const QUESTION_PARAMETER = 'question';
/** What resume URLs given out before the reference named: the question's message id. */
export const MESSAGE_ID_PARAMETER = 'messageId';

/**
 * The secret the service signs the answer with. It is derived, not stored: from the credential's API key, the
 * execution id and the node's id, so the node computes it again when the answer arrives (a waiting execution
 * has nowhere to keep a secret), it differs for every question, and no one without the key can sign for it.
 */
export async function answerSecret(
	context: IExecuteFunctions | IWebhookFunctions,
): Promise<string> {
	const credentials = await context.getCredentials<{ apiKey: string }>(CREDENTIAL_NAMES.workspace);
	return createHmac('sha256', String(credentials.apiKey))
		.update(`n8n-nodes-multichannel:answer:${context.getExecutionId()}:${context.getNode().id}`)
		.digest('hex');
}

export type ResponseType = 'approval' | 'choice' | 'freeText';

/** The ids of the two approval buttons; `approved` in the output says which was tapped. */
export const APPROVE_ID = 'approve';
export const DECLINE_ID = 'decline';

export interface AnswerData {
	answer: { type: string; id: string | null; title: string | null; text: string | null };
	from: string | null;
	answeredAt: string;
	messageId: string;
}

/** One output item of the operation, answered or not. */
export const AnswerOutput = z.object({
	approved: z
		.boolean()
		.optional()
		.describe('Approval only: whether Approve was tapped (false when the wait ended unanswered)'),
	timedOut: z.boolean().describe('Whether the wait ended without an answer (Limit Wait Time)'),
	answer: Answer.nullable(),
	from: z.string().nullable().describe('Who answered'),
	answeredAt: z.string().nullable(),
	respondedAt: z
		.string()
		.nullable()
		.describe(
			"When the answer came: answeredAt again, under the name n8n's own Send and Wait nodes use",
		),
	messageId: z.string().describe('The question that was sent'),
});

/** The node's output when the answer came. */
export function answeredOutput(responseType: ResponseType, data: AnswerData): IDataObject {
	return {
		...(responseType === 'approval' ? { approved: data.answer.id === APPROVE_ID } : {}),
		timedOut: false,
		answer: data.answer,
		from: data.from,
		answeredAt: data.answeredAt,
		respondedAt: data.answeredAt,
		messageId: data.messageId,
	};
}

/** The node's output when the wait ended without an answer ("Limit Wait Time"). */
export function timedOutOutput(responseType: ResponseType, messageId: string): IDataObject {
	return {
		...(responseType === 'approval' ? { approved: false } : {}),
		timedOut: true,
		answer: null,
		from: null,
		answeredAt: null,
		respondedAt: null,
		messageId,
	};
}
