import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import type { OperationContext } from '../../../shared/resources';
import { simplifyField, simplifyWanted } from '../simplify';
import { instanceLocator } from '../instance/locator';
import { groupLocator, groupOf } from './locator';
import { SimpleGroup, simplifyGroup } from './simplify';

export const option = {
	name: 'Get',
	value: 'get',
	action: 'Get a group',
	description: 'Get a group with its participants',
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance that is in the group' },
	{ ...groupLocator, description: 'The group to get' },
	simplifyField,
];

export const scope = api.workspace.groups.get.scope;
export const output = SimpleGroup;

export const fields = { instanceId: 'Instance', groupId: 'Group' };

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	const group = await client.groups.get(groupOf(this, itemIndex));
	return simplifyWanted(this, itemIndex) ? simplifyGroup(group) : group;
}
