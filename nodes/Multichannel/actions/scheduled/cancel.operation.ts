import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { locatorValue } from '../../../shared/locator';
import type { OperationContext } from '../../../shared/resources';
import { instanceLocator } from '../instance/locator';
import { messageIdField, messageIdOf } from '../message/messageId';

export const option = {
	name: 'Cancel',
	value: 'cancel',
	action: 'Cancel a scheduled message',
	description:
		'Cancel a message sent with Send At before it goes; one that already went or was cancelled is an error saying so',
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance the message is scheduled on' },
	{
		...messageIdField,
		description: 'The ID of the scheduled message, as the send with Send At returned it',
	},
];

export const scope = api.workspace.scheduledMessages.cancel.scope;
export const output = api.workspace.scheduledMessages.cancel.response;

export const fields = { instanceId: 'Instance', messageId: 'Message ID' };

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	return await client.scheduledMessages.cancel({
		instanceId: locatorValue(this, 'instanceId', itemIndex),
		messageId: messageIdOf(this, itemIndex),
	});
}
