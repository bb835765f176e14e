import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { WorkspaceClient } from '../../../../src/client';
import { MAX_LENGTH, PER_MESSAGE } from '../../../../src/client/resources/message-sends';
import type { OperationContext } from '../../../shared/resources';
import * as interactive from './interactive';
import * as send from './send';

export const option = {
	name: 'Send Buttons',
	value: 'sendButtons',
	action: 'Send a message with reply buttons',
	description: `Send a text with up to ${PER_MESSAGE.replyButtons.max} reply buttons; a tap comes back to the Multichannel Trigger as a received message with "reply"`,
};

const { min, max } = PER_MESSAGE.replyButtons;

const { mode, json } = interactive.inputModes('buttonsInput');

export const description: INodeProperties[] = [
	send.fromField,
	send.toField,
	interactive.textField,
	interactive.inputModeField('buttonsInput', 'Buttons'),
	{
		displayName: 'Buttons',
		name: 'buttons',
		type: 'fixedCollection',
		placeholder: 'Add Button',
		default: {},
		required: true,
		displayOptions: mode,
		typeOptions: {
			multipleValues: true,
			sortable: true,
			minRequiredFields: min,
			maxAllowedFields: max,
		},
		description: `${min} to ${max} buttons, shown in this order`,
		options: [
			{
				displayName: 'Button',
				name: 'button',
				values: [
					{
						displayName: 'Title',
						name: 'title',
						type: 'string',
						default: '',
						required: true,
						placeholder: 'e.g. Yes, see you',
						description: `The text on the button, up to ${MAX_LENGTH.buttonTitle} characters`,
					},
					{
						displayName: 'ID',
						name: 'id',
						type: 'string',
						default: '',
						placeholder: 'e.g. confirm',
						description:
							'What the reply carries as its ID when this button is tapped; the title when left empty',
					},
				],
			},
		],
	},
	{
		displayName: 'Buttons (JSON)',
		name: 'buttonsJson',
		type: 'json',
		default: '[\n  { "id": "yes", "title": "Yes" },\n  { "id": "no", "title": "No" }\n]',
		required: true,
		displayOptions: json,
		description: `A list of ${min} to ${max} buttons, as in the example: each with its ID and a title of up to ${MAX_LENGTH.buttonTitle} characters`,
	},
	send.optionsField([...interactive.headerAndFooter, send.trackLinksOption('text')]),
];

export const { scope, readsNumbers, output, concurrent } = send.operationBasics('sendButtons');

export const fields = {
	...send.fieldNames,
	...interactive.fieldNames,
	'body.buttons': 'Buttons',
	'body.buttons.*': 'Button',
	'body.buttons.*.id': 'ID',
	'body.buttons.*.title': 'Title',
};

type Button = { id: string; title: string };

export async function execute(this: IExecuteFunctions, item: OperationContext<WorkspaceClient>) {
	const { instanceId, fromEditor, entries, common } = interactive.readInteractive(this, item, {
		mode: 'buttonsInput',
		collection: 'buttons.button',
		json: 'buttonsJson',
		jsonLabel: 'Buttons (JSON)',
	});
	const body = {
		...common,
		// JSON is passed on as given: the contract names any field that is wrong, before sending.
		buttons: (fromEditor ? entries.map(interactive.idOrTitle) : entries) as Button[],
		...send.trackLinks(item.options),
	};
	return await send.message(this, item, 'sendButtons', instanceId, body);
}
