import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { filtersCollection } from '../../../shared/collections';
import { maxResults, readFilters, returnAllOrLimit } from '../../../shared/get-many';
import { locatorValue } from '../../../shared/locator';
import type { OperationContext } from '../../../shared/resources';
import { instanceLocator } from '../instance/locator';
import { labelLocator } from '../label/locator';
import { simplifyField, simplifyWanted } from '../simplify';
import { SimpleChat, simplifyChat } from './simplify';

export const option = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many chats',
	description:
		"List the chats of an instance, the most recently active first: name, whether it is a group, unread count, labels and last message; search by name or number, or keep one label's chats",
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance whose chats to list' },
	...returnAllOrLimit(),
	filtersCollection([
		{
			displayName: 'Search',
			name: 'search',
			type: 'string',
			default: '',
			placeholder: 'e.g. Ana or +1 415 555 0123',
			description: 'Part of the name (contact or group) or of the phone number',
		},
		{
			...labelLocator,
			required: false,
			description: 'Only the chats that have this label',
		},
	]),
	simplifyField,
];

export const scope = api.workspace.chats.list.scope;
export const output = SimpleChat;

export const fields = {
	instanceId: 'Instance',
	'query.search': 'Search',
	'query.labelId': 'Label',
};

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	const instanceId = locatorValue(this, 'instanceId', itemIndex);
	const { filters, query } = readFilters<{ search?: string; labelId?: unknown }>(this, itemIndex);
	const labelId =
		filters.labelId === undefined ? '' : locatorValue(this, 'filters.labelId', itemIndex);
	const chats = await client.chats.list.all(
		{ instanceId, query: { ...query, ...(labelId ? { labelId } : {}) } },
		{ max: maxResults(this, itemIndex) },
	);
	return simplifyWanted(this, itemIndex) ? chats.map(simplifyChat) : chats;
}
