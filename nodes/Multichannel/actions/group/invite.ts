import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import type { OperationContext, OperationModule } from '../../../shared/resources';
import { locatorValue } from '../common';
import { instanceLocator } from '../instance/locator';
import { groupLocator } from './locator';

type Kind = 'getInviteCode' | 'revokeInviteCode' | 'leave';

/** The operations that take just an instance and a group: invite code get/revoke, leave. */
export function groupOperation(
	kind: Kind,
	option: OperationModule<WorkspaceClient>['option'],
): OperationModule<WorkspaceClient> {
	const description: INodeProperties[] = [
		{ ...instanceLocator, description: 'The instance that is in the group' },
		groupLocator,
	];
	return {
		option,
		description,
		scope: api.workspace.groups[kind].scope,
		fields: { instanceId: 'Instance', groupId: 'Group' },
		async execute(
			this: IExecuteFunctions,
			{ client, itemIndex }: OperationContext<WorkspaceClient>,
		) {
			const instanceId = locatorValue(this, 'instanceId', itemIndex);
			const groupId = locatorValue(this, 'groupId', itemIndex);
			if (kind === 'leave') {
				await client.groups.leave({ instanceId, groupId });
				return { left: true, id: groupId };
			}
			return await client.groups[kind]({ instanceId, groupId });
		},
	};
}
