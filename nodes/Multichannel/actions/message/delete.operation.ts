import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import type { OperationContext } from '../../../shared/resources';
import { locatorValue } from '../../../shared/locator';
import { instanceLocator } from '../instance/locator';
import { messageIdField, messageIdOf } from './messageId';
import { Deleted } from '../../../shared/output';

export const option = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a message',
	description: 'Delete a message, for everyone when the channel still allows it',
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance the message was sent or received on' },
	{ ...messageIdField, description: 'The ID of the message to delete' },
];

export const scope = api.workspace.messages.delete.scope;
export const output = Deleted;

export const fields = { instanceId: 'Instance', messageId: 'Message ID' };

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	const messageId = messageIdOf(this, itemIndex);
	await client.messages.delete({
		instanceId: locatorValue(this, 'instanceId', itemIndex),
		messageId,
	});
	return { deleted: true, id: messageId };
}
