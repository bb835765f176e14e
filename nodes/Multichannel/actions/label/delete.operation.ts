import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { locatorValue } from '../../../shared/locator';
import { Deleted } from '../../../shared/output';
import type { OperationContext } from '../../../shared/resources';
import { labelFieldNames, labelLocator } from './locator';

export const option = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a label',
	description:
		'Delete a label: it is taken off every chat that has it (each one a Chat Labels Changed event)',
};

export const description: INodeProperties[] = [
	{ ...labelLocator, description: 'The label to delete' },
];

export const scope = api.workspace.labels.delete.scope;
export const output = Deleted;

export const fields = labelFieldNames;

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	const labelId = locatorValue(this, 'labelId', itemIndex);
	await client.labels.delete({ labelId });
	return { deleted: true, id: labelId };
}
