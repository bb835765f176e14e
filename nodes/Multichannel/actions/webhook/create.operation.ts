import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { additionalFieldsCollection } from '../../../shared/collections';
import type { OperationContext } from '../../../shared/resources';
import { compact, splitList } from '../../../shared/values';
import { gatheringOf } from '../../../shared/gather';
import { eventsField, gatherWebhookField, urlField, webhookFieldNames } from './fields';

export const option = {
	name: 'Create',
	value: 'create',
	action: 'Create a webhook',
	description: 'Register a URL to receive events of the messaging channel',
};

export const description: INodeProperties[] = [
	{
		...urlField,
		hint: 'The output holds the signing secret: the service returns it only now, never again. Store it where the receiver can verify signatures with it.',
	},
	eventsField(true),
	additionalFieldsCollection([
		{
			displayName: 'Description',
			name: 'description',
			type: 'string',
			default: '',
			placeholder: 'e.g. CRM sync',
		},
		gatherWebhookField,
		{
			displayName: 'Only For Instances',
			name: 'instanceIds',
			type: 'string',
			default: '',
			placeholder: 'e.g. inst_8f2a4c6e1b3d5f70, inst_1d3f5b7a9c2e4f60',
			description: 'Deliver only events of these instances (IDs separated by commas)',
		},
		{
			displayName: 'Secret',
			name: 'secret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'The signing secret, at least 16 characters; the service generates one when empty',
		},
	]),
];

export const scope = api.workspace.webhooks.create.scope;
export const output = api.workspace.webhooks.get.response;

export const fields = webhookFieldNames;

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as {
		description?: string;
		gather?: unknown;
		instanceIds?: string;
		secret?: string;
	};
	const instanceIds = splitList(additional.instanceIds);
	const gather = gatheringOf(additional.gather);
	// The one answer that carries the secret: it is output, as the user has no other way to learn it.
	return await client.webhooks.create({
		body: {
			url: (this.getNodeParameter('url', itemIndex) as string).trim(),
			events: this.getNodeParameter('events', itemIndex) as string[] as ['*'],
			...compact({ description: additional.description, secret: additional.secret }),
			...(instanceIds.length > 0 ? { filters: { instanceIds } } : {}),
			...(gather ? { gather } : {}),
		},
	});
}
