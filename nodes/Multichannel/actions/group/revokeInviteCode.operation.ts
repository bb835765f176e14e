import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import type { OperationContext } from '../../../shared/resources';
import { instanceLocator } from '../instance/locator';
import { groupLocator, groupOf } from './locator';

export const option = {
	name: 'Revoke Invite Code',
	value: 'revokeInviteCode',
	action: 'Revoke the invite code of a group',
	description: 'Make the current invite link stop working and get a new one',
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance that is in the group' },
	groupLocator,
];

export const scope = api.workspace.groups.revokeInviteCode.scope;
export const output = api.workspace.groups.revokeInviteCode.response;

export const fields = { instanceId: 'Instance', groupId: 'Group' };

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	return await client.groups.revokeInviteCode(groupOf(this, itemIndex));
}
