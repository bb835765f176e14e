import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { maxResults, returnAllOrLimit } from '../../../shared/get-many';
import type { OperationContext } from '../../../shared/resources';
import { locatorValue } from '../../../shared/locator';
import { simplifyField, simplifyWanted } from '../simplify';
import { instanceLocator } from '../instance/locator';
import { SimpleGroup, simplifyGroup } from './simplify';

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
export const output = SimpleGroup;

export const fields = { instanceId: 'Instance' };

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	const instanceId = locatorValue(this, 'instanceId', itemIndex);
	const groups = await client.groups.list.all({ instanceId }, { max: maxResults(this, itemIndex) });
	return simplifyWanted(this, itemIndex) ? groups.map(simplifyGroup) : groups;
}
