import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { updateFieldsCollection } from '../../../shared/collections';
import { requireChanges } from '../../../shared/input-errors';
import type { OperationContext } from '../../../shared/resources';
import { compact } from '../../../shared/values';
import { simplifyField, simplifyWanted } from '../simplify';
import { instanceLocator } from '../instance/locator';
import { groupInfoBody, groupInfoOptions, type GroupInfo } from './info';
import { groupLocator, groupOf } from './locator';
import { SimpleGroup, simplifyGroup } from './simplify';

export const option = {
	name: 'Update',
	value: 'update',
	action: 'Update a group',
	description: 'Change the subject, description or settings of a group',
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance that is in the group' },
	{ ...groupLocator, description: 'The group to update' },
	updateFieldsCollection([
		...groupInfoOptions,
		{
			displayName: 'Subject',
			name: 'subject',
			type: 'string',
			default: '',
			placeholder: 'e.g. Spring launch team',
		},
	]),
	simplifyField,
];

export const scope = api.workspace.groups.update.scope;
export const output = SimpleGroup;

export const fields = {
	instanceId: 'Instance',
	groupId: 'Group',
	'body.subject': 'Subject',
	'body.description': 'Description',
};

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	const update = this.getNodeParameter('updateFields', itemIndex, {}) as GroupInfo & {
		subject?: string;
	};
	const body = { ...compact({ subject: update.subject?.trim() }), ...groupInfoBody(update) };
	requireChanges(this.getNode(), itemIndex, body);
	const group = await client.groups.update({
		...groupOf(this, itemIndex),
		body,
	});
	return simplifyWanted(this, itemIndex) ? simplifyGroup(group) : group;
}
