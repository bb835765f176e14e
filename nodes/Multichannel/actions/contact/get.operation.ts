import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import type { OperationContext } from '../../../shared/resources';
import { instanceLocator } from '../instance/locator';
import { contactFieldNames } from './fields';
import { contactLocator, contactOf } from './locator';

export const option = {
	name: 'Get',
	value: 'get',
	action: 'Get a contact',
	description: 'Get a contact by its ID',
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance the contact belongs to' },
	{ ...contactLocator, description: 'The contact to get' },
];

export const scope = api.workspace.contacts.get.scope;
export const output = api.workspace.contacts.get.response;

export const fields = contactFieldNames;

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	return await client.contacts.get(contactOf(this, itemIndex));
}
