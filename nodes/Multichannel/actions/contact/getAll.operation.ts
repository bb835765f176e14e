import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { filtersCollection } from '../../../shared/collections';
import { maxResults, readFilters, returnAllOrLimit } from '../../../shared/get-many';
import type { OperationContext } from '../../../shared/resources';
import { locatorValue } from '../../../shared/locator';
import { instanceLocator } from '../instance/locator';
import { listItem } from '../../../shared/output';

export const option = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many contacts',
	description: 'List the contacts of an instance',
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance whose contacts to list' },
	...returnAllOrLimit(),
	filtersCollection([
		{
			displayName: 'Blocked',
			name: 'blocked',
			type: 'boolean',
			default: false,
			description: 'Whether to list only blocked contacts (on) or only contacts not blocked (off)',
		},
		{
			displayName: 'Search',
			name: 'search',
			type: 'string',
			default: '',
			placeholder: 'e.g. Ana',
			description: 'Part of a name or phone number',
		},
	]),
];

export const scope = api.workspace.contacts.list.scope;
export const output = listItem(api.workspace.contacts.list);

export const fields = {
	instanceId: 'Instance',
	'query.search': 'Search',
	'query.blocked': 'Blocked',
};

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	const instanceId = locatorValue(this, 'instanceId', itemIndex);
	const { filters, query } = readFilters<{ search?: string; blocked?: boolean }>(this, itemIndex);
	const blocked = filters.blocked !== undefined ? { blocked: filters.blocked } : {};
	return await client.contacts.list.all(
		{ instanceId, query: { ...query, ...blocked } },
		{ max: maxResults(this, itemIndex) },
	);
}
