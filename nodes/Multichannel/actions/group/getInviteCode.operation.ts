import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import type { OperationContext } from '../../../shared/resources';
import { instanceLocator } from '../instance/locator';
import { groupLocator, groupOf } from './locator';

export const option = {
	name: 'Get Invite Code',
	value: 'getInviteCode',
	action: 'Get the invite code of a group',
	description: 'Get the code and link that let people join a group',
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance that is in the group' },
	groupLocator,
];

export const scope = api.workspace.groups.getInviteCode.scope;
export const output = api.workspace.groups.getInviteCode.response;

export const fields = { instanceId: 'Instance', groupId: 'Group' };

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	return await client.groups.getInviteCode(groupOf(this, itemIndex));
}
