import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { filtersCollection } from '../../../shared/collections';
import { listItem } from '../../../shared/output';
import { maxResults, returnAllOrLimit } from '../../../shared/get-many';
import { locatorValue } from '../../../shared/locator';
import { normaliseChat } from '../../../shared/phone';
import type { OperationContext } from '../../../shared/resources';
import { instanceLocator } from '../instance/locator';

export const option = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many scheduled messages',
	description:
		'Get the messages sent with Send At: those still to go (the next first), then those that went or were cancelled',
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance the messages are scheduled on' },
	...returnAllOrLimit(),
	filtersCollection([
		{
			displayName: 'Chat',
			name: 'chatId',
			type: 'string',
			default: '',
			placeholder: 'e.g. +14155550181 or 120363025@g.us',
			description:
				"Only the messages scheduled to this chat: its chat ID, or a person's phone number (national numbers are read in the Default Country)",
		},
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			default: 'scheduled',
			options: [
				{ name: 'Scheduled', value: 'scheduled', description: 'Still to go' },
				{ name: 'Sent', value: 'sent', description: 'Went at their time (or late, on start)' },
				{ name: 'Cancelled', value: 'cancelled' },
			],
			description: 'Only the scheduled messages in this state',
		},
	]),
];

export const scope = api.workspace.scheduledMessages.list.scope;
export const readsNumbers = true;
export const output = listItem(api.workspace.scheduledMessages.list);

export const fields = { instanceId: 'Instance', 'query.chatId': 'Chat', 'query.status': 'Status' };

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex, defaultCountry }: OperationContext<WorkspaceClient>,
) {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as {
		chatId?: string;
		status?: string;
	};
	const status = filters.status?.trim().toLowerCase();
	const chat = filters.chatId?.trim();
	return await client.scheduledMessages.list.all(
		{
			instanceId: locatorValue(this, 'instanceId', itemIndex),
			query: {
				...(chat
					? { chatId: normaliseChat(chat, 'Chat', itemIndex, this.getNode(), defaultCountry) }
					: {}),
				...(status ? { status: status as 'scheduled' | 'sent' | 'cancelled' } : {}),
			},
		},
		{ max: maxResults(this, itemIndex) },
	);
}
