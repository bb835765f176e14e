import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import type { OperationContext, OperationModule } from '../../../shared/resources';
import { locatorValue } from '../common';
import { instanceLocator } from '../instance/locator';
import { contactFieldNames } from './fields';
import { contactLocator } from './locator';

type Kind = 'delete' | 'block' | 'unblock';

/** The operations that take just an instance and a contact: delete, block, unblock. */
export function contactOperation(
	kind: Kind,
	option: OperationModule<WorkspaceClient>['option'],
	locatorDescription: string,
): OperationModule<WorkspaceClient> {
	const description: INodeProperties[] = [
		{ ...instanceLocator, description: 'The instance the contact belongs to' },
		{ ...contactLocator, description: locatorDescription },
	];
	return {
		option,
		description,
		scope: api.workspace.contacts[kind].scope,
		fields: contactFieldNames,
		async execute(
			this: IExecuteFunctions,
			{ client, itemIndex }: OperationContext<WorkspaceClient>,
		) {
			const instanceId = locatorValue(this, 'instanceId', itemIndex);
			const contactId = locatorValue(this, 'contactId', itemIndex);
			if (kind === 'delete') {
				await client.contacts.delete({ instanceId, contactId });
				return { deleted: true, id: contactId };
			}
			return await client.contacts[kind]({ instanceId, contactId });
		},
	};
}
