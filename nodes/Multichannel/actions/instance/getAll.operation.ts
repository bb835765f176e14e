import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { maxResults, returnAllOrLimit } from '../../../shared/get-many';
import type { OperationContext } from '../../../shared/resources';
import { listItem } from '../../../shared/output';

export const option = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many instances',
	description: 'List the instances of the workspace',
};

export const description: INodeProperties[] = [...returnAllOrLimit()];

export const scope = api.workspace.instances.list.scope;
export const output = listItem(api.workspace.instances.list);

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	return await client.instances.list.all({}, { max: maxResults(this, itemIndex) });
}
