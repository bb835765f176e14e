import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { WorkspaceClient } from '../../../../src/client';
import type { OperationContext } from '../../../shared/resources';
import { messageIdField, messageIdOf } from './messageId';
import * as send from './send';

export const option = {
	name: 'Send Reaction',
	value: 'sendReaction',
	action: 'Send a reaction',
	description: 'React to a message with an emoji, or remove a reaction',
};

export const description: INodeProperties[] = [
	send.fromField,
	{ ...send.toField, description: 'The chat of the message: its phone number or group ID' },
	{ ...messageIdField, description: 'The ID of the message to react to' },
	{
		displayName: 'Emoji',
		name: 'emoji',
		type: 'string',
		default: '',
		placeholder: 'e.g. 👍',
		hint: 'Leave empty to remove a reaction sent before',
	},
	send.optionsField([], false),
];

export const { scope, readsNumbers, output, concurrent } = send.operationBasics('sendReaction');

export const fields = { ...send.fieldNames, 'body.messageId': 'Message ID', 'body.emoji': 'Emoji' };

export async function execute(this: IExecuteFunctions, item: OperationContext<WorkspaceClient>) {
	const { itemIndex } = item;
	const { instanceId, to } = send.target(this, item);
	const body = {
		to,
		messageId: messageIdOf(this, itemIndex),
		emoji: (this.getNodeParameter('emoji', itemIndex, '') as string).trim(),
	};
	return await send.message(this, item, 'sendReaction', instanceId, body);
}
