import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import type { OperationContext } from '../../../shared/resources';
import { locatorValue } from '../../../shared/locator';
import { webhookFieldNames, withoutSecret } from './fields';
import { webhookLocator } from './locator';

export const option = {
	name: 'Get',
	value: 'get',
	action: 'Get a webhook',
	description: 'Get a webhook and its state (the secret is never shown again)',
};

export const description: INodeProperties[] = [
	{ ...webhookLocator, description: 'The webhook to get' },
];

export const scope = api.workspace.webhooks.get.scope;
export const output = api.workspace.webhooks.get.response;

export const fields = webhookFieldNames;

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	return withoutSecret(
		await client.webhooks.get({ webhookId: locatorValue(this, 'webhookId', itemIndex) }),
	);
}
