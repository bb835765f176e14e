import { sleep, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import type { WorkspaceClient } from '../../../../src/client';
import { MAX_TYPING_SECONDS } from '../../../../src/client/resources/message-sends';
import { optionsCollection } from '../../../shared/collections';
import { concurrencyOption } from '../../../shared/execute';
import type { OperationContext } from '../../../shared/resources';
import * as send from './send';

export const option = {
	name: 'Send Typing',
	value: 'sendTyping',
	action: 'Show typing in a chat',
	description:
		'Show "typing…" or "recording audio…" in a chat for a few seconds, e.g. before a reply that takes a while',
};

export const description: INodeProperties[] = [
	send.fromField,
	{ ...send.toField, description: 'The phone number or group ID of the chat to show it in' },
	{
		displayName: 'Show',
		name: 'state',
		type: 'options',
		options: [
			{ name: 'Typing…', value: 'composing' },
			{ name: 'Recording Audio…', value: 'recording' },
		],
		default: 'composing',
	},
	{
		displayName: 'Seconds',
		name: 'seconds',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_TYPING_SECONDS, numberPrecision: 0 },
		default: 5,
		description: `How long to show it, from 1 to ${MAX_TYPING_SECONDS} seconds`,
	},
	optionsCollection([
		concurrencyOption,
		{
			displayName: 'Wait Until It Ends',
			name: 'wait',
			type: 'boolean',
			default: false,
			description:
				'Whether the node waits for the seconds to pass before handing the item on, so that the next node sends its message after the indicator',
		},
	]),
];

export const { scope, readsNumbers, output, concurrent } = send.operationBasics('sendTyping');

export const fields = {
	instanceId: 'Instance',
	'body.to': 'To',
	'body.state': 'Show',
	'body.seconds': 'Seconds',
};

export async function execute(this: IExecuteFunctions, item: OperationContext<WorkspaceClient>) {
	const { client, itemIndex, options } = item;
	const { instanceId, to } = send.target(this, item);
	const seconds = this.getNodeParameter('seconds', itemIndex) as number;
	const typing = await client.messages.sendTyping({
		instanceId,
		body: { to, state: this.getNodeParameter('state', itemIndex) as 'composing', seconds },
	});
	if (options.wait === true) await sleep(seconds * 1000);
	return typing;
}
