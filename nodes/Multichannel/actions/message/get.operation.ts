import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import type { OperationContext } from '../../../shared/resources';
import { locatorValue, simplifyField, simplifyWanted } from '../common';
import { instanceLocator } from '../instance/locator';
import { messageIdField, simplifyMessage } from './shared';

export const option = {
	name: 'Get',
	value: 'get',
	action: 'Get a message',
	description: 'Get a message and its status (sent, delivered, read or failed)',
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance the message was sent or received on' },
	messageIdField,
	simplifyField,
];

export const scope = api.workspace.messages.get.scope;

export const fields = { instanceId: 'Instance', messageId: 'Message ID' };

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	const message = await client.messages.get({
		instanceId: locatorValue(this, 'instanceId', itemIndex),
		messageId: (this.getNodeParameter('messageId', itemIndex) as string).trim(),
	});
	return simplifyWanted(this, itemIndex) ? simplifyMessage(message) : message;
}
