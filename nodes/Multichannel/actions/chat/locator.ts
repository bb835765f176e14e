import type { IExecuteFunctions } from 'n8n-workflow';

import { api } from '../../../../src/client';
import { workspaceConnection } from '../../../shared/connections';
import { searchMethod, searchPageQuery } from '../../../shared/lists';
import { locator, locatorValue } from '../../../shared/locator';
import { normaliseChat } from '../../../shared/phone';

/**
 * A chat of the chosen instance (a person or a group): picked from its chats (searchable by name or number),
 * or given by ID or expression, such as the `chatId` of a message a Multichannel Trigger received.
 */
export const chatLocator = {
	...locator({
		displayName: 'Chat',
		name: 'chatId',
		noun: 'chat',
		searchListMethod: 'searchChats',
		idPlaceholder: 'e.g. 14155550123@s.whatsapp.net or +1 415 555 0123',
		// A phone number may be written with spaces.
		idRegex: {
			regex: '\\s*\\S.*',
			errorMessage: 'Enter a chat ID, phone number, contact ID or @username',
		},
		description:
			"The conversation with a person or a group: its chat ID, as every message carries it in chatId, or the person's phone number, contact ID (ct_…) or @username",
	}),
	hint: 'After a Multichannel Trigger: {{ $json.data.chatId }} (By ID), with its instance {{ $json.data.instanceId }}',
};

/** The instance and chat an item names: the path of every single-chat request. */
export function chatOf(
	context: IExecuteFunctions,
	itemIndex: number,
	defaultCountry: string | undefined,
): { instanceId: string; chatId: string } {
	return {
		instanceId: locatorValue(context, 'instanceId', itemIndex),
		chatId: normaliseChat(
			locatorValue(context, 'chatId', itemIndex),
			'Chat',
			itemIndex,
			context.getNode(),
			defaultCountry,
		),
	};
}

/**
 * Fills "From list": the chats of the instance chosen above, the most recently active first. The service
 * searches names and numbers itself, so the filter is passed on.
 */
export const searchChats = searchMethod({
	connection: workspaceConnection,
	scope: api.workspace.chats.list.scope,
	noun: 'chat',
	dependsOn: 'instanceId',
	serviceSearches: true,
	page: async (client, request) =>
		await client.chats.list({ instanceId: request.parent, query: searchPageQuery(request) }),
	toItem: (chat) => {
		// A person who hides their number is shown by their username.
		const number = chat.isGroup
			? 'group'
			: (chat.phoneNumber ?? (chat.username ? `@${chat.username}` : chat.id));
		return { name: chat.name ? `${chat.name} (${number})` : number, value: chat.id };
	},
});
