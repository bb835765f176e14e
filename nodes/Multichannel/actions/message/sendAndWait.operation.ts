import {
	NodeOperationError,
	SEND_AND_WAIT_OPERATION,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { MAX_ANSWER_WAIT_DAYS } from '../../../../src/client/resources/answers';
import { optionsCollection } from '../../../shared/collections';
import { idempotencyKeyFor, idempotencyKeyOption } from '../../../shared/idempotency';
import type { OperationContext } from '../../../shared/resources';
import { readDateTime } from '../../../shared/values';
import {
	AnswerOutput,
	answerSecret,
	APPROVE_ID,
	DECLINE_ID,
	MESSAGE_ID_PARAMETER,
	timedOutOutput,
	type ResponseType,
} from './answer';
import * as send from './send';

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

const MAX_CHOICES = 10;
const MAX_BUTTONS = 3;
const DAY_MS = 24 * 60 * 60 * 1000;
const UNIT_MS: Record<string, number> = { minutes: 60_000, hours: 3_600_000, days: DAY_MS };

/** n8n's own "Limit Wait Time" option (same names and values as its Slack, Gmail and Telegram nodes). */
const limitWaitTimeOption: INodeProperties = {
	displayName: 'Limit Wait Time',
	name: 'limitWaitTime',
	type: 'fixedCollection',
	description: `Whether to stop waiting after a while: the node then outputs timedOut: true. Without a limit it waits up to ${MAX_ANSWER_WAIT_DAYS} days, the longest the service keeps a question open.`,
	default: { values: { limitType: 'afterTimeInterval', resumeAmount: 45, resumeUnit: 'minutes' } },
	options: [
		{
			displayName: 'Values',
			name: 'values',
			values: [
				{
					displayName: 'Limit Type',
					name: 'limitType',
					type: 'options',
					default: 'afterTimeInterval',
					options: [
						{
							name: 'After Time Interval',
							description: 'Waits for a certain amount of time',
							value: 'afterTimeInterval',
						},
						{
							name: 'At Specified Time',
							description: 'Waits until the set date and time',
							value: 'atSpecifiedTime',
						},
					],
				},
				{
					displayName: 'Amount',
					name: 'resumeAmount',
					type: 'number',
					displayOptions: { show: { limitType: ['afterTimeInterval'] } },
					typeOptions: { minValue: 0, numberPrecision: 2 },
					default: 1,
					description: 'The time to wait',
				},
				{
					displayName: 'Unit',
					name: 'resumeUnit',
					type: 'options',
					displayOptions: { show: { limitType: ['afterTimeInterval'] } },
					options: [
						{ name: 'Minutes', value: 'minutes' },
						{ name: 'Hours', value: 'hours' },
						{ name: 'Days', value: 'days' },
					],
					default: 'hours',
					description: 'Unit of the interval value',
				},
				{
					displayName: 'Max Date and Time',
					name: 'maxDateAndTime',
					type: 'dateTime',
					displayOptions: { show: { limitType: ['atSpecifiedTime'] } },
					default: '',
					description: 'Stop waiting at this date and time',
				},
			],
		},
	],
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
		description: 'The question, up to 1024 characters (4096 for Free Text)',
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
				description: 'The contact taps one of 2 to 10 options, shown as buttons or a list',
			},
			{
				name: 'Free Text',
				value: 'freeText',
				description: 'The next text message from the chat is the answer',
			},
		],
	},
	{
		displayName: 'Approval Options',
		name: 'approvalOptions',
		type: 'fixedCollection',
		placeholder: 'Add option',
		default: {},
		displayOptions: { show: { responseType: ['approval'] } },
		options: [
			{
				displayName: 'Values',
				name: 'values',
				values: [
					{
						displayName: 'Type of Approval',
						name: 'approvalType',
						type: 'options',
						default: 'double',
						options: [
							{ name: 'Approve Only', value: 'single' },
							{ name: 'Approve and Decline', value: 'double' },
						],
					},
					{
						displayName: 'Approve Button Label',
						name: 'approveLabel',
						type: 'string',
						default: 'Approve',
					},
					{
						displayName: 'Decline Button Label',
						name: 'disapproveLabel',
						type: 'string',
						default: 'Decline',
						displayOptions: { show: { approvalType: ['double'] } },
					},
				],
			},
		],
	},
	{
		displayName: 'Choices',
		name: 'choices',
		type: 'fixedCollection',
		placeholder: 'Add Choice',
		default: {},
		typeOptions: { multipleValues: true, sortable: true },
		displayOptions: { show: { responseType: ['choice'] } },
		description: `2 to ${MAX_CHOICES} options; the one tapped is the answer`,
		options: [
			{
				displayName: 'Choice',
				name: 'values',
				values: [
					{
						displayName: 'Title',
						name: 'title',
						type: 'string',
						default: '',
						placeholder: 'e.g. Tomorrow morning',
						description: 'What the contact sees: up to 20 characters on a button, 24 in a list',
					},
					{
						displayName: 'ID',
						name: 'id',
						type: 'string',
						default: '',
						placeholder: 'e.g. slot-am',
						description: 'What the output names as answer.ID; the title when empty',
					},
					{
						displayName: 'Description',
						name: 'description',
						type: 'string',
						default: '',
						description: 'A line under the title (lists only), up to 72 characters',
					},
				],
			},
		],
	},
	{
		displayName: 'Show Choices As',
		name: 'choiceFormat',
		type: 'options',
		default: 'list',
		displayOptions: { show: { responseType: ['choice'] } },
		options: [
			{ name: 'Buttons (Up to 3)', value: 'buttons' },
			{ name: 'List (Up to 10)', value: 'list' },
		],
	},
	{
		displayName: 'List Button Label',
		name: 'listButtonText',
		type: 'string',
		default: 'Choose',
		displayOptions: { show: { responseType: ['choice'], choiceFormat: ['list'] } },
		description: 'The label of the button that opens the list, up to 20 characters',
	},
	optionsCollection([
		{
			...idempotencyKeyOption,
			placeholder: 'e.g. refund-1042-approval',
			hint: 'Leave empty to derive one, so that a retried item is not sent twice',
		},
		limitWaitTimeOption,
	]),
];

export const scope = api.workspace.answers.register.scope;

/** The answer (or timedOut: true), which n8n outputs when the execution resumes. */
export const output = AnswerOutput;

export const fields = {
	...send.fieldNames,
	'body.text': 'Message',
	'body.buttonText': 'List Button Label',
	'body.expiresAt': 'Limit Wait Time',
};

type Question =
	| { operation: 'sendText'; body: { to: string; text: string } }
	| {
			operation: 'sendButtons';
			body: { to: string; text: string; buttons: Array<{ id: string; title: string }> };
	  }
	| {
			operation: 'sendList';
			body: {
				to: string;
				text: string;
				buttonText: string;
				sections: Array<{ rows: Array<{ id: string; title: string; description?: string }> }>;
			};
	  };

function invalid(context: IExecuteFunctions, itemIndex: number, field: string, problem: string) {
	return new NodeOperationError(
		context.getNode(),
		`Invalid value for "${field}" [item ${itemIndex}]: ${problem}`,
		{ itemIndex },
	);
}

/** The message that asks, by response type. */
function questionOf(
	context: IExecuteFunctions,
	itemIndex: number,
	responseType: ResponseType,
	to: string,
): Question {
	const text = context.getNodeParameter('message', itemIndex) as string;
	if (responseType === 'freeText') return { operation: 'sendText', body: { to, text } };
	if (responseType === 'approval') {
		const values = context.getNodeParameter('approvalOptions.values', itemIndex, {}) as IDataObject;
		const buttons = [{ id: APPROVE_ID, title: String(values.approveLabel ?? 'Approve') }];
		if ((values.approvalType ?? 'double') === 'double') {
			buttons.push({ id: DECLINE_ID, title: String(values.disapproveLabel ?? 'Decline') });
		}
		return { operation: 'sendButtons', body: { to, text, buttons } };
	}
	const choices = (
		context.getNodeParameter('choices.values', itemIndex, []) as Array<{
			title?: string;
			id?: string;
			description?: string;
		}>
	).map((choice) => ({
		title: String(choice.title ?? '').trim(),
		id: String(choice.id ?? '').trim() || String(choice.title ?? '').trim(),
		description: String(choice.description ?? '').trim(),
	}));
	if (choices.length < 2 || choices.length > MAX_CHOICES) {
		throw invalid(
			context,
			itemIndex,
			'Choices',
			`add 2 to ${MAX_CHOICES} (found ${choices.length})`,
		);
	}
	const ids = new Set<string>();
	for (const [index, choice] of choices.entries()) {
		if (choice.title === '')
			throw invalid(context, itemIndex, 'Choices', `choice ${index + 1} has no title`);
		if (ids.has(choice.id)) {
			throw invalid(context, itemIndex, 'Choices', `"${choice.id}" is used by two choices`);
		}
		ids.add(choice.id);
	}
	if (context.getNodeParameter('choiceFormat', itemIndex) === 'buttons') {
		if (choices.length > MAX_BUTTONS) {
			throw invalid(
				context,
				itemIndex,
				'Show Choices As',
				`buttons hold up to ${MAX_BUTTONS} choices (found ${choices.length}); show them as a list`,
			);
		}
		return {
			operation: 'sendButtons',
			body: { to, text, buttons: choices.map(({ id, title }) => ({ id, title })) },
		};
	}
	return {
		operation: 'sendList',
		body: {
			to,
			text,
			buttonText: context.getNodeParameter('listButtonText', itemIndex) as string,
			sections: [
				{
					rows: choices.map(({ id, title, description }) =>
						description === '' ? { id, title } : { id, title, description },
					),
				},
			],
		},
	};
}

/**
 * An AI agent's plain tool (`…multichannelTool`) cannot wait: a tool call must answer at once. n8n's human review
 * variant (`…multichannelHitlTool`) is built for it and pauses the agent's execution.
 */
function asPlainTool(context: IExecuteFunctions): boolean {
	const type = context.getNode().type;
	return type.endsWith('Tool') && !type.endsWith('HitlTool');
}

/**
 * n8n 1.x checks the resume URL's signature only for an execution marked with this call, as its own
 * send-and-wait nodes do; n8n 2.x checks it for every sendAndWait node and has no such method.
 */
function requireSignedResumeUrl(context: IExecuteFunctions): void {
	(
		context as IExecuteFunctions & { setSignatureValidationRequired?: () => void }
	).setSignatureValidationRequired?.();
}

/** When the wait ends: "Limit Wait Time", else the longest the service keeps a question open. */
function waitUntil(context: IExecuteFunctions, itemIndex: number): Date {
	const limit = context.getNodeParameter(
		'options.limitWaitTime.values',
		itemIndex,
		{},
	) as IDataObject;
	const now = Date.now();
	const longest = now + MAX_ANSWER_WAIT_DAYS * DAY_MS;
	if (Object.keys(limit).length === 0) return new Date(longest);
	let until: number;
	if (limit.limitType === 'atSpecifiedTime') {
		until = Date.parse(readDateTime(context, limit.maxDateAndTime, 'Limit Wait Time', itemIndex));
	} else {
		const amount = Number(limit.resumeAmount);
		const unit = UNIT_MS[String(limit.resumeUnit ?? 'hours')];
		if (!Number.isFinite(amount) || amount <= 0 || unit === undefined) {
			throw invalid(context, itemIndex, 'Limit Wait Time', 'enter an amount above 0');
		}
		until = now + amount * unit;
	}
	if (until <= now || until > longest) {
		throw invalid(
			context,
			itemIndex,
			'Limit Wait Time',
			`the wait must end in the future and within ${MAX_ANSWER_WAIT_DAYS} days`,
		);
	}
	return new Date(until);
}

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	// An execution waits once: the question is asked from the first item, as n8n's own nodes do.
	if (itemIndex > 0) return [];
	if (asPlainTool(this)) {
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
	const { instanceId, to } = send.target(this, itemIndex);
	const responseType = this.getNodeParameter('responseType', itemIndex) as ResponseType;
	const question = questionOf(this, itemIndex, responseType, to);
	const waitTill = waitUntil(this, itemIndex);

	const idempotencyKey = send.idempotencyKey(
		this,
		itemIndex,
		question.operation,
		instanceId,
		question.body,
	);
	const message =
		question.operation === 'sendText'
			? await client.messages.sendText({ instanceId, body: question.body }, { idempotencyKey })
			: question.operation === 'sendButtons'
				? await client.messages.sendButtons({ instanceId, body: question.body }, { idempotencyKey })
				: await client.messages.sendList({ instanceId, body: question.body }, { idempotencyKey });

	requireSignedResumeUrl(this);
	const registration = await client.answers.register(
		{
			instanceId,
			body: {
				messageId: message.id,
				accepts: responseType === 'freeText' ? ['text'] : ['reply'],
				url: this.getSignedResumeUrl({ [MESSAGE_ID_PARAMETER]: message.id }),
				secret: await answerSecret(this),
				expiresAt: waitTill.toISOString(),
			},
		},
		{
			idempotencyKey: idempotencyKeyFor(this, itemIndex, '', {
				operation: 'registerAnswer',
				body: { instanceId, messageId: message.id },
			}),
		},
	);

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
