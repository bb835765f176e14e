import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import type { OperationContext } from '../../../shared/resources';
import { locatorValue } from '../../../shared/locator';
import { webhookFieldNames } from './fields';
import { webhookLocator } from './locator';
import { Deleted } from '../../../shared/output';

export const option = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a webhook',
	description: 'Stop deliveries to a URL and remove the webhook',
};

export const description: INodeProperties[] = [
	{ ...webhookLocator, description: 'The webhook to delete' },
];

export const scope = api.workspace.webhooks.delete.scope;
export const output = Deleted;

export const fields = webhookFieldNames;

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	const webhookId = locatorValue(this, 'webhookId', itemIndex);
	await client.webhooks.delete({ webhookId });
	return { deleted: true, id: webhookId };
}
