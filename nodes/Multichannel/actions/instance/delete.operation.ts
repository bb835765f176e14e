import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { locatorValue } from '../../../shared/locator';
import type { OperationContext } from '../../../shared/resources';
import { instanceLocator } from './locator';
import { Deleted } from '../../../shared/output';

export const option = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete an instance',
	description: 'Delete an instance for good',
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance to delete' },
];

export const scope = api.workspace.instances.delete.scope;
export const output = Deleted;

export const fields = { instanceId: 'Instance' };

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	const instanceId = locatorValue(this, 'instanceId', itemIndex);
	await client.instances.delete({ instanceId });
	return { deleted: true, id: instanceId };
}
