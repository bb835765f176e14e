import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import type { OperationContext } from '../../../shared/resources';
import { sendIdempotencyKey, locatorValue } from '../common';
import { instanceLocator } from '../instance/locator';
import { messageIdField, recipient, sendFields, sendOptionsField, toField } from './shared';

export const option = {
	name: 'Send Reaction',
	value: 'sendReaction',
	action: 'Send a reaction',
	description: 'React to a message with an emoji, or remove a reaction',
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance to send from' },
	{ ...toField, description: 'The chat of the message: its phone number or group ID' },
	{ ...messageIdField, description: 'The ID of the message to react to' },
	{
		displayName: 'Emoji',
		name: 'emoji',
		type: 'string',
		default: '',
		placeholder: 'e.g. 👍',
		hint: 'Leave empty to remove a reaction sent before',
	},
	sendOptionsField([], false),
];

export const scope = api.workspace.messages.sendReaction.scope;

export const fields = { ...sendFields, 'body.messageId': 'Message ID', 'body.emoji': 'Emoji' };

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	const instanceId = locatorValue(this, 'instanceId', itemIndex);
	const body = {
		to: recipient(this, itemIndex),
		messageId: (this.getNodeParameter('messageId', itemIndex) as string).trim(),
		emoji: (this.getNodeParameter('emoji', itemIndex, '') as string).trim(),
	};
	return await client.messages.sendReaction(
		{ instanceId, body },
		{ idempotencyKey: sendIdempotencyKey(this, itemIndex, 'sendReaction', instanceId, body) },
	);
}
