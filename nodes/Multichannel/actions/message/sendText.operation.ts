import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import type { OperationContext } from '../../../shared/resources';
import { sendIdempotencyKey, locatorValue } from '../common';
import { instanceLocator } from '../instance/locator';
import { quoted, recipient, sendFields, sendOptionsField, toField } from './shared';

export const option = {
	name: 'Send Text',
	value: 'sendText',
	action: 'Send a text message',
	description: 'Send a text message to a phone number or a group',
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance to send from' },
	toField,
	{
		displayName: 'Text',
		name: 'text',
		type: 'string',
		default: '',
		required: true,
		typeOptions: { rows: 4 },
		placeholder: 'e.g. Hi Ana, your order has shipped',
		description: 'The text of the message, up to 4096 characters',
	},
	sendOptionsField([
		{
			displayName: 'Link Preview',
			name: 'previewUrl',
			type: 'boolean',
			default: false,
			description: 'Whether to show a preview of the first link in the text',
		},
	]),
];

export const scope = api.workspace.messages.sendText.scope;

export const fields = { ...sendFields, 'body.text': 'Text', 'body.previewUrl': 'Link Preview' };

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	const instanceId = locatorValue(this, 'instanceId', itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as { previewUrl?: boolean };
	const body = {
		to: recipient(this, itemIndex),
		text: this.getNodeParameter('text', itemIndex) as string,
		...quoted(this, itemIndex),
		...(options.previewUrl !== undefined ? { previewUrl: options.previewUrl } : {}),
	};
	return await client.messages.sendText(
		{ instanceId, body },
		{ idempotencyKey: sendIdempotencyKey(this, itemIndex, 'sendText', instanceId, body) },
	);
}
