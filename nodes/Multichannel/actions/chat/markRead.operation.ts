import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { z } from '../../../../src/client/zod';
import type { OperationContext } from '../../../shared/resources';
import { instanceLocator } from '../instance/locator';
import { simplifyField, simplifyWanted } from '../simplify';
import { chatLocator, chatOf } from './locator';
import { SimpleChat, simplifyChat } from './simplify';

export const option = {
	name: 'Mark All as Read',
	value: 'markRead',
	action: 'Mark a chat as read',
	description:
		'Mark every received message of a chat as read, as marking each one does; the sender sees them read',
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance the chat is on' },
	chatLocator,
	simplifyField,
];

export const scope = api.workspace.chats.markRead.scope;
export const readsNumbers = true;
export const output = SimpleChat.extend({
	markedRead: z.number().int().describe('How many received messages this marked read'),
});

export const fields = { instanceId: 'Instance', chatId: 'Chat' };

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex, defaultCountry }: OperationContext<WorkspaceClient>,
) {
	const chat = await client.chats.markRead(chatOf(this, itemIndex, defaultCountry));
	return simplifyWanted(this, itemIndex)
		? { ...simplifyChat(chat), markedRead: chat.markedRead }
		: chat;
}
