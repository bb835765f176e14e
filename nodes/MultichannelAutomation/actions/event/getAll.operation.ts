import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type AutomationClient } from '../../../../src/client';
import { filtersCollection } from '../../../shared/collections';
import { maxResults, returnAllOrLimit } from '../../../shared/get-many';
import type { OperationContext } from '../../../shared/resources';
import { listItem } from '../../../shared/output';

export const option = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many events',
	description: 'List the events published into the workspace, newest first',
};

export const description: INodeProperties[] = [
	...returnAllOrLimit(),
	filtersCollection([
		{
			displayName: 'Event Name',
			name: 'eventName',
			type: 'string',
			default: '',
			placeholder: 'e.g. order.paid',
			description: 'Only events with this name',
		},
	]),
];

export const scope = api.automation.events.list.scope;
export const output = listItem(api.automation.events.list);

export const fields = { 'query.name': 'Event Name' };

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<AutomationClient>,
) {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const query: { name?: string } = {};
	if (typeof filters.eventName === 'string' && filters.eventName.trim() !== '') {
		query.name = filters.eventName.trim();
	}
	return await client.events.list.all({ query }, { max: maxResults(this, itemIndex) });
}
