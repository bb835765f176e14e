import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import type { OperationContext } from '../../../shared/resources';
import { locatorValue } from '../../../shared/locator';
import { instanceLocator } from '../instance/locator';
import { messageIdField, messageIdOf } from './messageId';

export const option = {
	name: 'Mark as Read',
	value: 'markRead',
	action: 'Mark a message as read',
	description: 'Mark a received message as read; the sender sees it was read',
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance that received the message' },
	{ ...messageIdField, description: 'The ID of a received message' },
];

export const scope = api.workspace.messages.markRead.scope;
export const output = api.workspace.messages.markRead.response;

export const fields = { instanceId: 'Instance', messageId: 'Message ID' };

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	return await client.messages.markRead({
		instanceId: locatorValue(this, 'instanceId', itemIndex),
		messageId: messageIdOf(this, itemIndex),
	});
}
