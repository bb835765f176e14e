import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { locatorValue } from '../../../shared/locator';
import type { OperationContext } from '../../../shared/resources';
import { instanceLocator } from '../instance/locator';
import { messageIdField, messageIdOf } from './messageId';

export const option = {
	name: 'Get Poll Results',
	value: 'getPollResults',
	action: 'Get the results of a poll',
	description:
		'Get the current tally of a poll this instance sent: the votes per option, with who voted',
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance that sent the poll' },
	{
		...messageIdField,
		description: "The ID of the poll: the message returned by Send Poll (or a vote's messageId)",
	},
];

export const scope = api.workspace.polls.getResults.scope;
export const output = api.workspace.polls.getResults.response;

export const fields = { instanceId: 'Instance', messageId: 'Message ID' };

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	return await client.polls.getResults({
		instanceId: locatorValue(this, 'instanceId', itemIndex),
		messageId: messageIdOf(this, itemIndex),
	});
}
