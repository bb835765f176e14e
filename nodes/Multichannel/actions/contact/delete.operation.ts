import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import type { OperationContext } from '../../../shared/resources';
import { instanceLocator } from '../instance/locator';
import { contactFieldNames } from './fields';
import { contactLocator, contactOf } from './locator';
import { Deleted } from '../../../shared/output';

export const option = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a contact',
	description: 'Delete a contact of an instance',
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance the contact belongs to' },
	{ ...contactLocator, description: 'The contact to delete' },
];

export const scope = api.workspace.contacts.delete.scope;
export const output = Deleted;

export const fields = contactFieldNames;

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	const contact = contactOf(this, itemIndex);
	await client.contacts.delete(contact);
	return { deleted: true, id: contact.contactId };
}
