import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { updateFieldsCollection } from '../../../shared/collections';
import { requireChanges } from '../../../shared/input-errors';
import type { OperationContext } from '../../../shared/resources';
import { compact, splitList } from '../../../shared/values';
import { instanceLocator } from '../instance/locator';
import { contactDetailFields, contactFieldNames } from './fields';
import { contactLocator, contactOf } from './locator';

export const option = {
	name: 'Update',
	value: 'update',
	action: 'Update a contact',
	description: 'Change the name, email or tags of a contact',
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance the contact belongs to' },
	{ ...contactLocator, description: 'The contact to update' },
	updateFieldsCollection(contactDetailFields),
];

export const scope = api.workspace.contacts.update.scope;
export const output = api.workspace.contacts.update.response;

export const fields = contactFieldNames;

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	const update = this.getNodeParameter('updateFields', itemIndex, {}) as {
		name?: string;
		email?: string;
		tags?: string;
	};
	const body = {
		...compact({ name: update.name?.trim(), email: update.email?.trim() }),
		...(update.tags !== undefined ? { tags: splitList(update.tags) } : {}),
	};
	requireChanges(this.getNode(), itemIndex, body);
	return await client.contacts.update({ ...contactOf(this, itemIndex), body });
}
