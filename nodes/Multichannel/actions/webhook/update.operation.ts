import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { updateFieldsCollection } from '../../../shared/collections';
import { gatheringOf, GATHER_DISPLAY_NAME } from '../../../shared/gather';
import { invalidValue, requireChanges } from '../../../shared/input-errors';
import type { OperationContext } from '../../../shared/resources';
import { locatorValue } from '../../../shared/locator';
import { splitList } from '../../../shared/values';
import {
	eventsField,
	gatherWebhookField,
	urlField,
	webhookFieldNames,
	withoutSecret,
} from './fields';
import { webhookLocator } from './locator';

export const option = {
	name: 'Update',
	value: 'update',
	action: 'Update a webhook',
	description: 'Change the URL, events, filters or gathering of a webhook, or turn it back on',
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
		gatherWebhookField,
		{
			displayName: 'Only For Instances',
			name: 'instanceIds',
			type: 'string',
			default: '',
			placeholder: 'e.g. inst_8f2a4c6e1b3d5f70',
			description: 'Deliver only events of these instances (IDs separated by commas)',
		},
		{
			displayName: 'Stop Gathering',
			name: 'stopGathering',
			type: 'boolean',
			default: true,
			description: `Whether to deliver every message alone again: turns off "${GATHER_DISPLAY_NAME}"`,
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
		gather?: unknown;
		instanceIds?: string;
		stopGathering?: boolean;
		url?: string;
	};
	const instanceIds = splitList(update.instanceIds);
	const gather = gatheringOf(update.gather);
	if (gather && update.stopGathering === true) {
		throw invalidValue(
			this.getNode(),
			'Stop Gathering',
			itemIndex,
			`remove it or "${GATHER_DISPLAY_NAME}": the update can either gather or stop gathering`,
		);
	}
	const body = {
		...(update.url !== undefined ? { url: update.url.trim() } : {}),
		...(update.events !== undefined ? { events: update.events as ['*'] } : {}),
		...(update.description !== undefined ? { description: update.description } : {}),
		...(update.enabled !== undefined ? { enabled: update.enabled } : {}),
		...(instanceIds.length > 0 ? { filters: { instanceIds } } : {}),
		...(gather ? { gather } : update.stopGathering === true ? { gather: null } : {}),
	};
	requireChanges(this.getNode(), itemIndex, body);
	return withoutSecret(
		await client.webhooks.update({ webhookId: locatorValue(this, 'webhookId', itemIndex), body }),
	);
}
