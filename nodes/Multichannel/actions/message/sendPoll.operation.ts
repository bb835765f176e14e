import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import type { OperationContext } from '../../../shared/resources';
import { sendIdempotencyKey, locatorValue, splitList } from '../common';
import { instanceLocator } from '../instance/locator';
import { quoted, recipient, sendFields, sendOptionsField, toField } from './shared';

export const option = {
	name: 'Send Poll',
	value: 'sendPoll',
	action: 'Send a poll',
	description: 'Send a question with answers to choose from',
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance to send from' },
	toField,
	{
		displayName: 'Question',
		name: 'question',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. Which day suits you best?',
	},
	{
		displayName: 'Answers',
		name: 'pollOptions',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. Monday, Tuesday, Friday',
		description: 'Between 2 and 12 answers, separated by commas',
	},
	{
		displayName: 'Allow Multiple Answers',
		name: 'multipleAnswers',
		type: 'boolean',
		default: false,
		description: 'Whether people may choose more than one answer',
	},
	sendOptionsField(),
];

export const scope = api.workspace.messages.sendPoll.scope;

export const fields = {
	...sendFields,
	'body.question': 'Question',
	'body.options': 'Answers',
	'body.multipleAnswers': 'Allow Multiple Answers',
};

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	const instanceId = locatorValue(this, 'instanceId', itemIndex);
	const body = {
		to: recipient(this, itemIndex),
		question: (this.getNodeParameter('question', itemIndex) as string).trim(),
		options: splitList(this.getNodeParameter('pollOptions', itemIndex)),
		multipleAnswers: this.getNodeParameter('multipleAnswers', itemIndex, false) as boolean,
		...quoted(this, itemIndex),
	};
	return await client.messages.sendPoll(
		{ instanceId, body },
		{ idempotencyKey: sendIdempotencyKey(this, itemIndex, 'sendPoll', instanceId, body) },
	);
}
