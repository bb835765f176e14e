import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { additionalFieldsCollection } from '../../../shared/collections';
import type { OperationContext } from '../../../shared/resources';
import { colorField, labelFieldNames, nameField } from './locator';

export const option = {
	name: 'Create',
	value: 'create',
	action: 'Create a label',
	description: 'Create a label for chats (name and colour); a workspace keeps up to 20',
};

export const description: INodeProperties[] = [
	{ ...nameField, required: true },
	additionalFieldsCollection([colorField]),
];

export const scope = api.workspace.labels.create.scope;
export const output = api.workspace.labels.create.response;

export const fields = labelFieldNames;

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	const name = String(this.getNodeParameter('name', itemIndex)).trim();
	const { color } = this.getNodeParameter('additionalFields', itemIndex, {}) as { color?: string };
	return await client.labels.create({
		body: { name, ...(color ? { color: color as never } : {}) },
	});
}
