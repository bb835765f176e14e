import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { MESSAGING_EVENTS } from '../../../../src/client';
import { eventOptions } from '../../../shared/events';
import { gatherField, gatherFieldNames } from '../../../shared/gather';

/**
 * What the webhook operations share: their URL, Events and Gather fields, their field names, and the output.
 */

/** The events a messaging webhook can receive, "All events" first. */
export function eventsField(required: boolean): INodeProperties {
	return {
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		default: ['*'],
		required,
		options: eventOptions(MESSAGING_EVENTS),
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

/** The registration's `gather`: bursts of a chat delivered to the URL as one event. */
export const gatherWebhookField = gatherField(
	'Whether the messages a person sends in one chat in quick succession reach the URL as one message.received event, once the chat has been quiet: data.gathered is true and data.messages holds them in order. Taps on buttons or lists, answers taken by Send and Wait, statuses and your own sends are still delivered alone.',
);

export const webhookFieldNames = {
	webhookId: 'Webhook',
	'body.url': 'URL',
	'body.events': 'Events',
	'body.secret': 'Secret',
	'body.filters.instanceIds': 'Only For Instances',
	'body.description': 'Description',
	'body.enabled': 'Enabled',
	...gatherFieldNames,
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
