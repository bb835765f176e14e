import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { maxResults, returnAllOrLimit } from '../../../shared/get-many';
import { locatorValue } from '../../../shared/locator';
import { listItem } from '../../../shared/output';
import type { OperationContext } from '../../../shared/resources';
import { instanceLocator } from '../instance/locator';

export const option = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many statuses',
	description:
		"List the instance's own statuses of the last 24 hours, the newest first, with how many contacts viewed each",
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance whose statuses to list' },
	...returnAllOrLimit(),
];

export const scope = api.workspace.statuses.list.scope;
export const output = listItem(api.workspace.statuses.list);

export const fields = { instanceId: 'Instance' };

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	const instanceId = locatorValue(this, 'instanceId', itemIndex);
	return await client.statuses.list.all({ instanceId }, { max: maxResults(this, itemIndex) });
}
