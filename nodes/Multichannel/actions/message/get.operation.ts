import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { Message } from '../../../../src/client/resources/messages';
import { z } from '../../../../src/client/zod';
import type { OperationContext } from '../../../shared/resources';
import { locatorValue } from '../../../shared/locator';
import { compact } from '../../../shared/values';
import { simplifyField, simplifyWanted } from '../simplify';
import { instanceLocator } from '../instance/locator';
import { messageIdField, messageIdOf } from './messageId';
import { SimpleMessage, simplifyMessage } from './simplify';

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

/**
 * Get is asked for one message and how it fared: the simplified message, with where it is, whom it went to and
 * its status (why it failed, when it did).
 */
const MessageWithStatus = z.object({
	id: SimpleMessage.shape.id,
	...Message.pick({ instanceId: true, chatId: true }).shape,
	...SimpleMessage.omit({ id: true }).shape,
	to: z.string().optional(),
	status: Message.shape.status,
	error: z.string().optional().describe('Why the message failed'),
});
export const output = MessageWithStatus;

export const fields = { instanceId: 'Instance', messageId: 'Message ID' };

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	const message = await client.messages.get({
		instanceId: locatorValue(this, 'instanceId', itemIndex),
		messageId: messageIdOf(this, itemIndex),
	});
	return simplifyWanted(this, itemIndex) ? withStatus(message) : message;
}

function withStatus(message: Message): z.output<typeof MessageWithStatus> {
	const { id, ...simple } = simplifyMessage(message);
	return compact({
		id,
		instanceId: message.instanceId,
		chatId: message.chatId,
		...simple,
		to: message.to ?? undefined,
		status: message.status,
		error: message.error?.message,
	});
}
