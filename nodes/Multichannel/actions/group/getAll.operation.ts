import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { returnAllOrLimit } from '../../../shared/descriptions';
import type { OperationContext } from '../../../shared/resources';
import { locatorValue, simplifyField, simplifyWanted } from '../common';
import { instanceLocator } from '../instance/locator';
import { simplifyGroup } from './locator';

export const option = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many groups',
	description: 'List the groups an instance is in',
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance whose groups to list' },
	...returnAllOrLimit(),
	simplifyField,
];

export const scope = api.workspace.groups.list.scope;

export const fields = { instanceId: 'Instance' };

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	const instanceId = locatorValue(this, 'instanceId', itemIndex);
	const returnAll = this.getNodeParameter('returnAll', itemIndex) as boolean;
	const max = returnAll ? Infinity : (this.getNodeParameter('limit', itemIndex) as number);
	const groups = await client.groups.list.all({ instanceId }, { max });
	return simplifyWanted(this, itemIndex) ? groups.map(simplifyGroup) : groups;
}
