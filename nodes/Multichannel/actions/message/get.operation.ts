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

/** The essentials of a message: who, what, its status and when. */
const SimpleMessage = z.object({
	...Message.pick({
		id: true,
		instanceId: true,
		chatId: true,
		direction: true,
		type: true,
		status: true,
	}).shape,
	from: z.string().optional(),
	to: z.string().optional(),
	text: z.string().optional(),
	error: z.string().optional().describe('Why the message failed'),
	createdAt: Message.shape.createdAt,
});
export const output = SimpleMessage;

export const fields = { instanceId: 'Instance', messageId: 'Message ID' };

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	const message = await client.messages.get({
		instanceId: locatorValue(this, 'instanceId', itemIndex),
		messageId: messageIdOf(this, itemIndex),
	});
	return simplifyWanted(this, itemIndex) ? simplifyMessage(message) : message;
}

function simplifyMessage(message: Message): z.output<typeof SimpleMessage> {
	return compact({
		id: message.id,
		instanceId: message.instanceId,
		chatId: message.chatId,
		direction: message.direction,
		from: message.from ?? undefined,
		to: message.to ?? undefined,
		type: message.type,
		status: message.status,
		text: typeof message.content?.text === 'string' ? message.content.text : undefined,
		error: message.error?.message,
		createdAt: message.createdAt,
	});
}
