import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { MAX_LENGTH } from '../../../../src/client/resources/message-sends';
import { locatorValue } from '../../../shared/locator';
import type { OperationContext } from '../../../shared/resources';
import { instanceLocator } from '../instance/locator';
import { messageIdField, messageIdOf } from './messageId';

export const option = {
	name: 'Edit',
	value: 'edit',
	action: 'Edit the text of a sent message',
	description:
		'Change the text of a text message this instance sent; the recipient sees it marked as edited',
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance that sent the message' },
	{ ...messageIdField, description: 'The ID of a text message this instance sent' },
	{
		displayName: 'Text',
		name: 'text',
		type: 'string',
		default: '',
		required: true,
		typeOptions: { rows: 4 },
		placeholder: 'e.g. Hi Ana, your order ships tomorrow',
		description: `The new text of the message, up to ${MAX_LENGTH.text} characters`,
	},
];

export const scope = api.workspace.messages.edit.scope;

export const output = api.workspace.messages.edit.response;

export const fields = { instanceId: 'Instance', messageId: 'Message ID', 'body.text': 'Text' };

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	return await client.messages.edit({
		instanceId: locatorValue(this, 'instanceId', itemIndex),
		messageId: messageIdOf(this, itemIndex),
		body: { text: this.getNodeParameter('text', itemIndex) as string },
	});
}
