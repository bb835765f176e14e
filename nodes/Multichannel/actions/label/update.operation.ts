import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { updateFieldsCollection } from '../../../shared/collections';
import { requireChanges } from '../../../shared/input-errors';
import { locatorValue } from '../../../shared/locator';
import type { OperationContext } from '../../../shared/resources';
import { compact } from '../../../shared/values';
import { colorField, labelFieldNames, labelLocator, nameField } from './locator';

export const option = {
	name: 'Update',
	value: 'update',
	action: 'Update a label',
	description: 'Rename a label or change its colour; the chats that have it keep it',
};

export const description: INodeProperties[] = [
	{ ...labelLocator, description: 'The label to change' },
	updateFieldsCollection([nameField, colorField]),
];

export const scope = api.workspace.labels.update.scope;
export const output = api.workspace.labels.update.response;

export const fields = labelFieldNames;

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	const update = this.getNodeParameter('updateFields', itemIndex, {}) as {
		name?: string;
		color?: string;
	};
	const body = compact({ name: update.name?.trim(), color: update.color as never });
	requireChanges(this.getNode(), itemIndex, body);
	return await client.labels.update({ labelId: locatorValue(this, 'labelId', itemIndex), body });
}
