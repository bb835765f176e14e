import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { MAX_REJECT_TEXT } from '../../../../src/client/resources/calls';
import { additionalFieldsCollection } from '../../../shared/collections';
import { locatorValue } from '../../../shared/locator';
import type { OperationContext } from '../../../shared/resources';
import { compact } from '../../../shared/values';
import { instanceLocator } from '../instance/locator';

export const option = {
	name: 'Reject',
	value: 'reject',
	action: 'Reject a call',
	description: 'Reject a ringing call, optionally sending the caller a text message',
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance being called' },
	{
		displayName: 'Call ID',
		name: 'callId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. call_3c9e1f7a2b4d6e80',
		description: 'The ID of the ringing call, as the Call Received event of the trigger gives it',
	},
	additionalFieldsCollection([
		{
			displayName: 'Message to Caller',
			name: 'text',
			type: 'string',
			default: '',
			typeOptions: { rows: 2 },
			placeholder: "e.g. Sorry, we can't take calls. Please write to us here.",
			description: `A text message sent to the caller once the call is rejected (at most ${MAX_REJECT_TEXT} characters)`,
		},
	]),
];

export const scope = api.workspace.calls.reject.scope;
export const output = api.workspace.calls.reject.response;

export const fields = {
	instanceId: 'Instance',
	callId: 'Call ID',
	'body.text': 'Message to Caller',
};

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as { text?: string };
	return await client.calls.reject({
		instanceId: locatorValue(this, 'instanceId', itemIndex),
		callId: (this.getNodeParameter('callId', itemIndex) as string).trim(),
		body: compact({ text: additional.text?.trim() || undefined }),
	});
}
