import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { WorkspaceClient } from '../../../../src/client';
import { MAX_LENGTH } from '../../../../src/client/resources/message-sends';
import type { OperationContext } from '../../../shared/resources';
import { mentionFieldNames, mentionOptions, readMentions } from './mentions';
import * as send from './send';

export const option = {
	name: 'Send Text',
	value: 'sendText',
	action: 'Send a text message',
	description: 'Send a text message to a phone number or a group',
};

export const description: INodeProperties[] = [
	send.fromField,
	send.toField,
	{
		displayName: 'Text',
		name: 'text',
		type: 'string',
		default: '',
		required: true,
		typeOptions: { rows: 4 },
		placeholder: 'e.g. Hi Ana, your order has shipped',
		description: `The text of the message, up to ${MAX_LENGTH.text} characters`,
	},
	send.optionsField([
		{
			displayName: 'Link Preview',
			name: 'previewUrl',
			type: 'boolean',
			default: false,
			description: 'Whether to show a preview of the first link in the text',
		},
		send.trackLinksOption('text'),
		...mentionOptions('text'),
	]),
];

export const { scope, readsNumbers, output, concurrent } = send.operationBasics('sendText');

export const fields = {
	...send.fieldNames,
	'body.text': 'Text',
	'body.previewUrl': 'Link Preview',
	...mentionFieldNames,
};

export async function execute(this: IExecuteFunctions, item: OperationContext<WorkspaceClient>) {
	const { itemIndex, options } = item;
	const { instanceId, to } = send.target(this, item);
	const { text, ...mentions } = readMentions(
		this,
		item,
		to,
		this.getNodeParameter('text', itemIndex) as string,
	);
	const body = {
		to,
		text: text ?? '',
		...mentions,
		...send.quoted(item.options),
		...(typeof options.previewUrl === 'boolean' ? { previewUrl: options.previewUrl } : {}),
		...send.trackLinks(item.options),
	};
	return await send.message(this, item, 'sendText', instanceId, body);
}
