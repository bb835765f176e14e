import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import type { OperationContext } from '../../../shared/resources';
import { instanceLocator } from '../instance/locator';
import { simplifyField, simplifyWanted } from '../simplify';
import { chatLocator, chatOf } from './locator';
import { SimpleChat, simplifyChat } from './simplify';

export const option = {
	name: 'Get',
	value: 'get',
	action: 'Get a chat',
	description: 'Get a chat with a person or group: its name, unread count and last message',
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance the chat is on' },
	chatLocator,
	simplifyField,
];

export const scope = api.workspace.chats.get.scope;
export const readsNumbers = true;
export const output = SimpleChat;

export const fields = { instanceId: 'Instance', chatId: 'Chat' };

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex, defaultCountry }: OperationContext<WorkspaceClient>,
) {
	const chat = await client.chats.get(chatOf(this, itemIndex, defaultCountry));
	return simplifyWanted(this, itemIndex) ? simplifyChat(chat) : chat;
}
