import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodeProperties,
} from 'n8n-workflow';

import { api, MESSAGING_EVENTS } from '../../../../src/client';
import { locator, searchList } from '../common';

/** A webhook of the workspace: picked from the list (searchable by URL), or given by ID or expression. */
export const webhookLocator = locator({
	displayName: 'Webhook',
	name: 'webhookId',
	noun: 'webhook',
	searchListMethod: 'searchWebhooks',
	idPlaceholder: 'e.g. wh_2b7d4f9a1c3e5b80',
	description: 'The webhook to use',
});

export async function searchWebhooks(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchList(this, {
		scope: api.workspace.webhooks.list.scope,
		noun: 'webhook',
		filter,
		paginationToken,
		page: async (client, cursor) =>
			await client.webhooks.list({ query: { limit: 100, ...(cursor ? { cursor } : {}) } }),
		toItem: (webhook) => ({
			name: `${webhook.url ?? webhook.id}${webhook.status === 'disabled' ? ' (disabled)' : ''}`,
			value: webhook.id,
		}),
	});
}

const label = (event: string) => {
	const text = event.replace(/[._]/g, ' ');
	return text.charAt(0).toUpperCase() + text.slice(1);
};

/** The events a messaging webhook can receive, "All events" first. */
export function eventsField(required: boolean): INodeProperties {
	return {
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		default: ['*'],
		required,
		options: [
			{ name: 'All Events', value: '*', description: 'Every event, including ones added later' },
			...MESSAGING_EVENTS.map((event) => ({ name: label(event), value: event })),
		],
		description: 'The events the service delivers to the URL',
	};
}

export const urlField: INodeProperties = {
	displayName: 'URL',
	name: 'url',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. https://example.com/hooks/multichannel',
	description: 'The address the service posts the events to',
};

export const webhookFieldNames = {
	webhookId: 'Webhook',
	'body.url': 'URL',
	'body.events': 'Events',
	'body.secret': 'Secret',
	'body.filters.instanceIds': 'Only For Instances',
	'body.description': 'Description',
	'body.enabled': 'Enabled',
};

/**
 * A webhook as any operation but Create outputs it: never with a signing secret, even if a service sent one,
 * so the secret cannot travel on through the workflow or into the execution log.
 */
export function withoutSecret<T extends object>(webhook: T): IDataObject {
	const rest = { ...webhook } as IDataObject;
	delete rest.secret;
	return rest;
}
