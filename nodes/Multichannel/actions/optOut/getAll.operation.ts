import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { maxResults, returnAllOrLimit } from '../../../shared/get-many';
import { listItem } from '../../../shared/output';
import type { OperationContext } from '../../../shared/resources';

export const option = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many opted out numbers',
	description: "List the workspace's opted-out phone numbers, latest first",
};

export const description: INodeProperties[] = returnAllOrLimit();

export const scope = api.workspace.optOuts.list.scope;
export const output = listItem(api.workspace.optOuts.list);

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	return await client.optOuts.list.all({}, { max: maxResults(this, itemIndex) });
}
