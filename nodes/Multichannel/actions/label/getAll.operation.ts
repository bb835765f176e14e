import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { filtersCollection } from '../../../shared/collections';
import { maxResults, readFilters, returnAllOrLimit } from '../../../shared/get-many';
import { listItem } from '../../../shared/output';
import type { OperationContext } from '../../../shared/resources';

export const option = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many labels',
	description: "List the workspace's labels: name, colour and how many chats have each",
};

export const description: INodeProperties[] = [
	...returnAllOrLimit(),
	filtersCollection([
		{
			displayName: 'Search',
			name: 'search',
			type: 'string',
			default: '',
			placeholder: 'e.g. support',
			description: 'Part of the name',
		},
	]),
];

export const scope = api.workspace.labels.list.scope;
export const output = listItem(api.workspace.labels.list);

export const fields = { 'query.search': 'Search' };

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	const { query } = readFilters(this, itemIndex);
	return await client.labels.list.all({ query }, { max: maxResults(this, itemIndex) });
}
