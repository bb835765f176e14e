import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { locatorValue } from '../../../shared/locator';
import type { OperationContext } from '../../../shared/resources';
import { instanceLocator } from './locator';

export const option = {
	name: 'Restart',
	value: 'restart',
	action: 'Restart an instance',
	description: 'Restart the channel session of an instance',
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance to restart' },
];

export const scope = api.workspace.instances.restart.scope;
export const output = api.workspace.instances.restart.response;

export const fields = { instanceId: 'Instance' };

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	return await client.instances.restart({
		instanceId: locatorValue(this, 'instanceId', itemIndex),
	});
}
