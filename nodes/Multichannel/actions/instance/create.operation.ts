import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { additionalFieldsCollection } from '../../../shared/collections';
import type { OperationContext } from '../../../shared/resources';
import { descriptionField } from './fields';
import { compact } from '../../../shared/values';

export const option = {
	name: 'Create',
	value: 'create',
	action: 'Create an instance',
	description: 'Create an instance: a channel session to connect a phone number to',
};

export const description: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. Sales',
		description: 'A name to recognise the instance by',
	},
	additionalFieldsCollection([descriptionField]),
];

export const scope = api.workspace.instances.create.scope;
export const output = api.workspace.instances.create.response;

export const fields = { 'body.name': 'Name', 'body.description': 'Description' };

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	const name = (this.getNodeParameter('name', itemIndex) as string).trim();
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as {
		description?: string;
	};
	return await client.instances.create({
		body: compact({ name, description: additional.description }),
	});
}
