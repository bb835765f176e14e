import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { updateFieldsCollection } from '../../../shared/collections';
import { requireChanges } from '../../../shared/input-errors';
import type { OperationContext } from '../../../shared/resources';
import { locatorValue } from '../../../shared/locator';
import { splitList } from '../../../shared/values';
import { eventsField, urlField, webhookFieldNames, withoutSecret } from './fields';
import { webhookLocator } from './locator';

export const option = {
	name: 'Update',
	value: 'update',
	action: 'Update a webhook',
	description: 'Change the URL, events or filters of a webhook, or turn it back on',
};

export const description: INodeProperties[] = [
	{ ...webhookLocator, description: 'The webhook to update' },
	updateFieldsCollection([
		{
			displayName: 'Description',
			name: 'description',
			type: 'string',
			default: '',
		},
		{
			displayName: 'Enabled',
			name: 'enabled',
			type: 'boolean',
			default: true,
			description:
				'Whether the webhook receives events; turn on to re-enable one the service disabled after failed deliveries',
		},
		{ ...eventsField(false), default: ['*'] },
		{
			displayName: 'Only For Instances',
			name: 'instanceIds',
			type: 'string',
			default: '',
			placeholder: 'e.g. inst_8f2a4c6e1b3d5f70',
			description: 'Deliver only events of these instances (IDs separated by commas)',
		},
		{ ...urlField, required: false },
	]),
];

export const scope = api.workspace.webhooks.update.scope;
export const output = api.workspace.webhooks.get.response;

export const fields = webhookFieldNames;

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	const update = this.getNodeParameter('updateFields', itemIndex, {}) as {
		description?: string;
		enabled?: boolean;
		events?: string[];
		instanceIds?: string;
		url?: string;
	};
	const instanceIds = splitList(update.instanceIds);
	const body = {
		...(update.url !== undefined ? { url: update.url.trim() } : {}),
		...(update.events !== undefined ? { events: update.events as ['*'] } : {}),
		...(update.description !== undefined ? { description: update.description } : {}),
		...(update.enabled !== undefined ? { enabled: update.enabled } : {}),
		...(instanceIds.length > 0 ? { filters: { instanceIds } } : {}),
	};
	requireChanges(this.getNode(), itemIndex, body);
	return withoutSecret(
		await client.webhooks.update({ webhookId: locatorValue(this, 'webhookId', itemIndex), body }),
	);
}
