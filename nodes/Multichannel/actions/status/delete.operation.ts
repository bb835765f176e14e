import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { locatorValue } from '../../../shared/locator';
import { Deleted } from '../../../shared/output';
import type { OperationContext } from '../../../shared/resources';
import { instanceLocator } from '../instance/locator';

export const option = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a status',
	description: 'Delete a status before its 24 hours are up',
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance that posted the status' },
	{
		displayName: 'Status ID',
		name: 'statusId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. st_0123456789abcdef',
		description: 'The ID of the status, as Post and Get Many output it',
	},
];

export const scope = api.workspace.statuses.delete.scope;
export const output = Deleted;

export const fields = { instanceId: 'Instance', statusId: 'Status ID' };

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	const instanceId = locatorValue(this, 'instanceId', itemIndex);
	const statusId = String(this.getNodeParameter('statusId', itemIndex)).trim();
	await client.statuses.delete({ instanceId, statusId });
	return { deleted: true, id: statusId };
}
