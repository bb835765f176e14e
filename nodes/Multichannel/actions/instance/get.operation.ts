import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import type { OperationContext } from '../../../shared/resources';
import { locatorValue } from '../../../shared/locator';
import { instanceLocator } from './locator';

export const option = {
	name: 'Get',
	value: 'get',
	action: 'Get an instance',
	description: 'Get an instance by its ID',
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance to get' },
];

export const scope = api.workspace.instances.get.scope;
export const output = api.workspace.instances.get.response;

export const fields = { instanceId: 'Instance' };

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	return await client.instances.get({ instanceId: locatorValue(this, 'instanceId', itemIndex) });
}
