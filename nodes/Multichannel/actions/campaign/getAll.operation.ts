import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { CAMPAIGN_STATES } from '../../../../src/client/resources/campaigns';
import { filtersCollection } from '../../../shared/collections';
import { maxResults, returnAllOrLimit } from '../../../shared/get-many';
import { listItem } from '../../../shared/output';
import type { OperationContext } from '../../../shared/resources';
import { compact } from '../../../shared/values';
import { capitalised } from '../../../shared/words';

export const option = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many campaigns',
	description: "List the workspace's campaigns, newest first, each with its state and counts",
};

export const description: INodeProperties[] = [
	...returnAllOrLimit(),
	filtersCollection([
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			default: 'running',
			options: CAMPAIGN_STATES.map((state) => ({ name: capitalised(state), value: state })),
			description: 'Only the campaigns in this state',
		},
		{
			displayName: 'Instance ID',
			name: 'instanceId',
			type: 'string',
			default: '',
			placeholder: 'e.g. inst_0123456789abcdef',
			description: 'Only the campaigns sent from this instance',
		},
	]),
];

export const scope = api.workspace.campaigns.list.scope;
export const output = listItem(api.workspace.campaigns.list);

export const fields = { 'query.status': 'Status', 'query.instanceId': 'Instance ID' };

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as {
		status?: (typeof CAMPAIGN_STATES)[number];
		instanceId?: string;
	};
	const query = compact({ status: filters.status, instanceId: filters.instanceId?.trim() });
	return await client.campaigns.list.all({ query }, { max: maxResults(this, itemIndex) });
}
