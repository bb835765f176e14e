import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { locatorValue } from '../../../shared/locator';
import type { OperationContext } from '../../../shared/resources';
import { instanceLocator } from './locator';

export const option = {
	name: 'Log Out',
	value: 'logout',
	action: 'Log out an instance',
	description: 'Disconnect the phone of an instance; it can be connected again later',
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance to log out' },
];

export const scope = api.workspace.instances.logout.scope;
export const output = api.workspace.instances.logout.response;

export const fields = { instanceId: 'Instance' };

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	return await client.instances.logout({ instanceId: locatorValue(this, 'instanceId', itemIndex) });
}
