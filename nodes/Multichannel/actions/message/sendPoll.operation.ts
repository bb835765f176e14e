import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { WorkspaceClient } from '../../../../src/client';
import { PER_MESSAGE } from '../../../../src/client/resources/message-sends';
import type { OperationContext } from '../../../shared/resources';
import { splitList } from '../../../shared/values';
import * as send from './send';

export const option = {
	name: 'Send Poll',
	value: 'sendPoll',
	action: 'Send a poll',
	description: 'Send a question with answers to choose from',
};

export const description: INodeProperties[] = [
	send.fromField,
	send.toField,
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
		description: `Between ${PER_MESSAGE.pollOptions.min} and ${PER_MESSAGE.pollOptions.max} answers, separated by commas, semicolons or new lines`,
	},
	{
		displayName: 'Allow Multiple Answers',
		name: 'multipleAnswers',
		type: 'boolean',
		default: false,
		description: 'Whether people may choose more than one answer',
	},
	send.optionsField(),
];

export const { scope, readsNumbers, output, concurrent } = send.operationBasics('sendPoll');

export const fields = {
	...send.fieldNames,
	'body.question': 'Question',
	'body.options': 'Answers',
	'body.multipleAnswers': 'Allow Multiple Answers',
};

export async function execute(this: IExecuteFunctions, item: OperationContext<WorkspaceClient>) {
	const { itemIndex } = item;
	const { instanceId, to } = send.target(this, item);
	const body = {
		to,
		question: (this.getNodeParameter('question', itemIndex) as string).trim(),
		options: splitList(this.getNodeParameter('pollOptions', itemIndex)),
		multipleAnswers: this.getNodeParameter('multipleAnswers', itemIndex, false) as boolean,
		...send.quoted(item.options),
	};
	return await send.message(this, item, 'sendPoll', instanceId, body);
}
