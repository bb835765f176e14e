import { NodeOperationError, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import type { OperationContext } from '../../../shared/resources';
import { compact, locatorValue, simplifyField, simplifyWanted } from '../common';
import { instanceLocator } from '../instance/locator';
import { groupLocator, simplifyGroup } from './locator';

export const option = {
	name: 'Update',
	value: 'update',
	action: 'Update a group',
	description: 'Change the subject, description or settings of a group',
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance that is in the group' },
	{ ...groupLocator, description: 'The group to update' },
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Description',
				name: 'description',
				type: 'string',
				default: '',
				typeOptions: { rows: 3 },
			},
			{
				displayName: 'Only Admins Can Edit Info',
				name: 'locked',
				type: 'boolean',
				default: false,
				description: 'Whether only admins can change the subject, description and picture',
			},
			{
				displayName: 'Only Admins Can Send',
				name: 'announcementsOnly',
				type: 'boolean',
				default: false,
				description: 'Whether only admins can send messages to the group',
			},
			{
				displayName: 'Subject',
				name: 'subject',
				type: 'string',
				default: '',
				placeholder: 'e.g. Spring launch team',
			},
		],
	},
	simplifyField,
];

export const scope = api.workspace.groups.update.scope;

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
	const update = this.getNodeParameter('updateFields', itemIndex, {}) as {
		subject?: string;
		description?: string;
		locked?: boolean;
		announcementsOnly?: boolean;
	};
	const settings = compact({ locked: update.locked, announcementsOnly: update.announcementsOnly });
	const body = {
		...compact({ subject: update.subject?.trim() }),
		...(update.description !== undefined ? { description: update.description } : {}),
		...(Object.keys(settings).length > 0 ? { settings } : {}),
	};
	if (Object.keys(body).length === 0) {
		throw new NodeOperationError(
			this.getNode(),
			`Invalid value for "Update Fields" [item ${itemIndex}]: add at least one field to change`,
			{ itemIndex },
		);
	}
	const group = await client.groups.update({
		instanceId: locatorValue(this, 'instanceId', itemIndex),
		groupId: locatorValue(this, 'groupId', itemIndex),
		body,
	});
	return simplifyWanted(this, itemIndex) ? simplifyGroup(group) : group;
}
