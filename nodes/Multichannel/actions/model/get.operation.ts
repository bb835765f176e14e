import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { locatorValue } from '../../../shared/locator';
import type { OperationContext } from '../../../shared/resources';
import { modelLocator } from './locator';

export const option = {
	name: 'Get',
	value: 'get',
	action: 'Get a model',
	description: 'Get one AI model by its ID',
};

export const description: INodeProperties[] = [
	{
		...modelLocator,
		description: 'The model to get',
	},
];

export const scope = api.workspace.models.get.scope;
export const output = api.workspace.models.get.response;

export const fields = { modelId: 'Model' };

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	return await client.models.get({ modelId: locatorValue(this, 'modelId', itemIndex) });
}
