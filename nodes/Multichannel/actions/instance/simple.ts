import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import type { OperationContext, OperationModule } from '../../../shared/resources';
import { locatorValue } from '../common';
import { instanceLocator } from './locator';

type Kind = 'getConnectionState' | 'restart' | 'logout' | 'delete';

/** The operations that take just an instance: connection state, restart, log out, delete. */
export function instanceOperation(
	kind: Kind,
	option: OperationModule<WorkspaceClient>['option'],
	locatorDescription: string,
): OperationModule<WorkspaceClient> {
	const description: INodeProperties[] = [{ ...instanceLocator, description: locatorDescription }];
	return {
		option,
		description,
		scope: api.workspace.instances[kind].scope,
		fields: { instanceId: 'Instance' },
		async execute(
			this: IExecuteFunctions,
			{ client, itemIndex }: OperationContext<WorkspaceClient>,
		) {
			const instanceId = locatorValue(this, 'instanceId', itemIndex);
			if (kind === 'delete') {
				await client.instances.delete({ instanceId });
				return { deleted: true, id: instanceId };
			}
			return await client.instances[kind]({ instanceId });
		},
	};
}
