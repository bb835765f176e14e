import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import type { OperationContext } from '../../../shared/resources';
import { instanceLocator } from '../instance/locator';
import { contactFieldNames } from './fields';
import { contactLocator, contactOf } from './locator';

export const option = {
	name: 'Block',
	value: 'block',
	action: 'Block a contact',
	description: 'Stop messages from and to a contact',
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance the contact belongs to' },
	{ ...contactLocator, description: 'The contact to block' },
];

export const scope = api.workspace.contacts.block.scope;
export const output = api.workspace.contacts.block.response;

export const fields = contactFieldNames;

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	return await client.contacts.block(contactOf(this, itemIndex));
}
