import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { maxResults, returnAllOrLimit } from '../../../shared/get-many';
import type { OperationContext } from '../../../shared/resources';
import { withoutSecret } from './fields';
import { listItem } from '../../../shared/output';

export const option = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many webhooks',
	description: 'List the webhooks of the messaging channel',
};

export const description: INodeProperties[] = [...returnAllOrLimit()];

export const scope = api.workspace.webhooks.list.scope;
export const output = listItem(api.workspace.webhooks.list);

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	const webhooks = await client.webhooks.list.all({}, { max: maxResults(this, itemIndex) });
	return webhooks.map(withoutSecret);
}
