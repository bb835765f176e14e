import {
	NodeOperationError,
	SEND_AND_WAIT_OPERATION,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../../src/client';
import { MAX_LENGTH } from '../../../../../src/client/resources/message-sends';
import { optionsCollection } from '../../../../shared/collections';
import { idempotencyKeyFor, idempotencyKeyOption } from '../../../../shared/idempotency';
import type { OperationContext } from '../../../../shared/resources';
import { toolMode } from '../../../../shared/tool-mode';
import {
	AnswerOutput,
	answerSecret,
	QUESTION_PARAMETER,
	timedOutOutput,
	type ResponseType,
} from './answer';
import {
	afterAnswerOption,
	allowedToAnswerOption,
	answerControlFieldNames,
	answerControls,
} from './answerControls';
import { MAX_CHOICES } from './question';
import * as question from './question';
import * as send from '../send';
import { limitWaitTimeOption, waitUntil } from './waitLimit';

/**
 * Sends a question and pauses the execution (n8n's own waiting: it survives a restart, no process holds it)
 * until the contact answers in the chat: a tap on a reply button or list row, or, for Free Text, their next
 * text. The service delivers that answer once to the execution's signed resume URL (answerWebhook.ts).
 * Like n8n's own send-and-wait operations it asks one question per execution, from the first item.
 */

export const option = {
	name: 'Send and Wait for Response',
	value: SEND_AND_WAIT_OPERATION,
	action: 'Send message and wait for response',
	description: 'Send a question and wait until the contact answers it in the chat',
};

export const description: INodeProperties[] = [
	send.fromField,
	send.toField,
	{
		displayName: 'Message',
		name: 'message',
		type: 'string',
		default: '',
		required: true,
		typeOptions: { rows: 4 },
		placeholder: 'e.g. Refund of $120 for order 1042?',
		description: `The question, up to ${MAX_LENGTH.interactiveBody} characters (${MAX_LENGTH.text} for Free Text)`,
	},
	{
		displayName: 'Response Type',
		name: 'responseType',
		type: 'options',
		default: 'approval',
		options: [
			{
				name: 'Approval',
				value: 'approval',
				description: 'The contact taps Approve (or Decline) under the message',
			},
			{
				name: 'Choice',
				value: 'choice',
				description: `The contact taps one of 2 to ${MAX_CHOICES} options, shown as buttons or a list`,
			},
			{
				name: 'Free Text',
				value: 'freeText',
				description: 'The next text message from the chat is the answer',
			},
		],
	},
	...question.fields,
	optionsCollection([
		{
			...idempotencyKeyOption,
			placeholder: 'e.g. refund-1042-approval',
			hint: 'Leave empty to derive one, so that a retried item is not sent twice',
		},
		limitWaitTimeOption,
		allowedToAnswerOption,
		afterAnswerOption,
	]),
];

export const scope = api.workspace.answers.register.scope;

export const readsNumbers = true;

/** The answer (or timedOut: true), which n8n outputs when the execution resumes. */
export const output = AnswerOutput;

export const fields = {
	...send.fieldNames,
	'body.text': 'Message',
	'body.buttonText': 'List Button Label',
	'body.expiresAt': 'Limit Wait Time',
	...answerControlFieldNames,
};

/**
 * n8n 1.x checks the resume URL's signature only for an execution marked with this call, as its own
 * send-and-wait nodes do; n8n 2.x checks it for every sendAndWait node and has no such method.
 */
function requireSignedResumeUrl(context: IExecuteFunctions): void {
	(
		context as IExecuteFunctions & { setSignatureValidationRequired?: () => void }
	).setSignatureValidationRequired?.();
}

export async function execute(this: IExecuteFunctions, item: OperationContext<WorkspaceClient>) {
	const { client, itemIndex } = item;
	// An execution waits once: the question is asked from the first item, as n8n's own nodes do.
	if (itemIndex > 0) return [];
	// A plain tool call must answer at once; n8n's human review tool is built to pause the agent.
	if (toolMode(this) === 'tool') {
		throw new NodeOperationError(
			this.getNode(),
			'Send and Wait for Response cannot pause an AI agent when called as a tool',
			{
				itemIndex,
				description:
					"Connect the Multichannel human review tool to the agent instead (in the agent's tools, under Human in the Loop): n8n pauses the agent until the answer comes.",
			},
		);
	}
	const { instanceId, to } = send.target(this, item);
	const responseType = this.getNodeParameter('responseType', itemIndex) as ResponseType;
	const asked = question.questionOf(this, itemIndex, responseType, to);
	const waitTill = waitUntil(this, item);
	const controls = answerControls(this, item, to);

	// Registered before the question is sent, and bound to it by the send: an answer cannot arrive before the
	// registration and reach the workspace's triggers too (docs/design.md, "Send and Wait").
	const reference = idempotencyKeyFor(this, itemIndex, '', {
		operation: 'question',
		body: { instanceId, ...asked.body },
	});
	requireSignedResumeUrl(this);
	const registration = await client.answers.register(
		{
			instanceId,
			body: {
				to,
				reference,
				accepts: responseType === 'freeText' ? ['text'] : ['reply'],
				url: this.getSignedResumeUrl({ [QUESTION_PARAMETER]: reference }),
				secret: await answerSecret(this),
				expiresAt: waitTill.toISOString(),
				...controls,
			},
		},
		{
			idempotencyKey: idempotencyKeyFor(this, itemIndex, '', {
				operation: 'registerAnswer',
				body: { instanceId, reference },
			}),
		},
	);
	const message = await send.message(this, item, asked.operation, instanceId, {
		...asked.body,
		answerRegistrationId: registration.id,
	});

	// When the wait ends unanswered, n8n resumes the node as a disabled one, which outputs what its stack entry
	// holds; putting the timed-out item there is how the node still says what happened.
	this.getExecuteData().data.main = [
		[{ json: timedOutOutput(responseType, message.id), pairedItem: { item: itemIndex } }],
	];
	await this.putExecutionToWait(waitTill);
	return {
		waitingForAnswer: true,
		messageId: message.id,
		registrationId: registration.id,
		expiresAt: registration.expiresAt,
	};
}
