import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import type { OperationContext } from '../../../shared/resources';
import { instanceLocator } from '../instance/locator';
import { contactFieldNames } from './fields';
import { contactLocator, contactOf } from './locator';

export const option = {
	name: 'Unblock',
	value: 'unblock',
	action: 'Unblock a contact',
	description: 'Allow messages from and to a blocked contact again',
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance the contact belongs to' },
	{ ...contactLocator, description: 'The contact to unblock' },
];

export const scope = api.workspace.contacts.unblock.scope;
export const output = api.workspace.contacts.unblock.response;

export const fields = contactFieldNames;

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	return await client.contacts.unblock(contactOf(this, itemIndex));
}
