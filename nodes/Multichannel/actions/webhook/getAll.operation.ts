import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { returnAllOrLimit } from '../../../shared/descriptions';
import type { OperationContext } from '../../../shared/resources';
import { withoutSecret } from './shared';

export const option = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many webhooks',
	description: 'List the webhooks of the messaging channel',
};

export const description: INodeProperties[] = [...returnAllOrLimit()];

export const scope = api.workspace.webhooks.list.scope;

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	const returnAll = this.getNodeParameter('returnAll', itemIndex) as boolean;
	const max = returnAll ? Infinity : (this.getNodeParameter('limit', itemIndex) as number);
	const webhooks = await client.webhooks.list.all({}, { max });
	return webhooks.map(withoutSecret);
}
