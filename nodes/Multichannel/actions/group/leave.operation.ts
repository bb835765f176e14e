import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { z } from '../../../../src/client/zod';
import type { OperationContext } from '../../../shared/resources';
import { instanceLocator } from '../instance/locator';
import { groupLocator, groupOf } from './locator';

export const option = {
	name: 'Leave',
	value: 'leave',
	action: 'Leave a group',
	description: 'Make the instance leave a group',
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance that is in the group' },
	groupLocator,
];

export const scope = api.workspace.groups.leave.scope;
export const output = z.object({ left: z.literal(true), id: z.string() });

export const fields = { instanceId: 'Instance', groupId: 'Group' };

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	const group = groupOf(this, itemIndex);
	await client.groups.leave(group);
	return { left: true, id: group.groupId };
}
