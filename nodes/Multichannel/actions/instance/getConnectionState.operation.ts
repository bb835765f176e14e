import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { locatorValue } from '../../../shared/locator';
import type { OperationContext } from '../../../shared/resources';
import { instanceLocator } from './locator';

export const option = {
	name: 'Get Connection State',
	value: 'getConnectionState',
	action: 'Get the connection state of an instance',
	description: 'Find out whether the phone of an instance is connected',
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance to check' },
];

export const scope = api.workspace.instances.getConnectionState.scope;
export const output = api.workspace.instances.getConnectionState.response;

export const fields = { instanceId: 'Instance' };

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	return await client.instances.getConnectionState({
		instanceId: locatorValue(this, 'instanceId', itemIndex),
	});
}
