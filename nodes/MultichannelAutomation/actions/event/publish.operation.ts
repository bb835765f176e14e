import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type AutomationClient } from '../../../../src/client';
import { optionsCollection } from '../../../shared/collections';
import { idempotencyKeyFor, idempotencyKeyOption } from '../../../shared/idempotency';
import type { OperationContext } from '../../../shared/resources';
import { readDateTime, readJsonObject } from '../../../shared/values';

export const option = {
	name: 'Publish',
	value: 'publish',
	action: 'Publish an event',
	description:
		"Publish a named event with a JSON payload, delivered to the workspace's automation webhooks",
};

export const description: INodeProperties[] = [
	{
		displayName: 'Event Name',
		name: 'eventName',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. order.paid',
		description:
			'Lowercase letters, digits, dots, dashes and underscores, starting with a letter. Webhooks receive the event as automation.&lt;name&gt;.',
	},
	{
		displayName: 'Payload',
		name: 'payload',
		type: 'json',
		default: '{}',
		description: 'The event data: a JSON object, or an expression that gives one',
	},
	optionsCollection([
		idempotencyKeyOption,
		{
			displayName: 'Occurred At',
			name: 'occurredAt',
			type: 'dateTime',
			default: '',
			description:
				'When the event happened, if not now. In the time zone of the workflow unless an offset is given.',
		},
	]),
];

export const scope = api.automation.events.publish.scope;
export const output = api.automation.events.publish.response;

export const fields = {
	'body.name': 'Event Name',
	'body.payload': 'Payload',
	'body.occurredAt': 'Occurred At',
};

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex, options }: OperationContext<AutomationClient>,
) {
	const name = String(this.getNodeParameter('eventName', itemIndex)).trim();
	const payload = readJsonObject(
		this,
		this.getNodeParameter('payload', itemIndex, '{}'),
		'Payload',
		itemIndex,
	);
	const body: { name: string; payload: IDataObject; occurredAt?: string } = { name, payload };
	if (options.occurredAt !== undefined && options.occurredAt !== '') {
		body.occurredAt = readDateTime(this, options.occurredAt, 'Occurred At', itemIndex);
	}
	const idempotencyKey = idempotencyKeyFor(this, itemIndex, options.idempotencyKey, {
		operation: 'event.publish',
		body,
	});
	return await client.events.publish({ body }, { idempotencyKey });
}
