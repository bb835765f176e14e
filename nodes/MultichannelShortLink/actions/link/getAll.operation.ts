import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type ShortLinkClient } from '../../../../src/client';
import { filtersCollection } from '../../../shared/collections';
import { maxResults, returnAllOrLimit } from '../../../shared/get-many';
import type { OperationContext } from '../../../shared/resources';
import { listItem } from '../../../shared/output';

export const option = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many short links',
	description: 'List the short links of the workspace, newest first',
};

export const description: INodeProperties[] = [
	...returnAllOrLimit(),
	filtersCollection([
		{
			displayName: 'Search',
			name: 'search',
			type: 'string',
			default: '',
			placeholder: 'e.g. spring',
			description: 'Only links whose code, destination URL or title contains this text',
		},
		{
			displayName: 'Tag',
			name: 'tag',
			type: 'string',
			default: '',
			placeholder: 'e.g. promo',
			description: 'Only links with this tag',
		},
	]),
];

export const scope = api.shortLink.links.list.scope;
export const output = listItem(api.shortLink.links.list);

export const fields = { 'query.search': 'Search', 'query.tag': 'Tag' };

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<ShortLinkClient>,
) {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const query: { search?: string; tag?: string } = {};
	if (typeof filters.search === 'string' && filters.search.trim() !== '') {
		query.search = filters.search.trim();
	}
	if (typeof filters.tag === 'string' && filters.tag.trim() !== '') query.tag = filters.tag.trim();
	return await client.links.list.all({ query }, { max: maxResults(this, itemIndex) });
}
