import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { filtersCollection } from '../../../shared/collections';
import { maxResults, returnAllOrLimit } from '../../../shared/get-many';
import type { OperationContext } from '../../../shared/resources';
import { readDateTime } from '../../../shared/values';
import { chatLocator, chatOf } from '../chat/locator';
import { instanceLocator } from '../instance/locator';
import { simplifyField, simplifyWanted } from '../simplify';
import { SimpleMessage, simplifyMessage } from './simplify';

export const option = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many messages of a chat',
	description:
		'Get the messages of one chat (its history), newest or oldest first, sent, received or both, within a time range',
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance the chat is on' },
	chatLocator,
	...returnAllOrLimit(),
	{
		displayName: 'Order',
		name: 'order',
		type: 'options',
		default: 'newest',
		options: [
			{
				name: 'Newest First',
				value: 'newest',
				description: 'With a limit: the latest messages',
			},
			{
				name: 'Oldest First',
				value: 'oldest',
				description: 'With a limit: the first messages of the chat, or since the time given',
			},
		],
		description: 'Which messages come first',
	},
	{
		displayName: 'Direction',
		name: 'direction',
		type: 'options',
		default: 'both',
		options: [
			{ name: 'Both', value: 'both', description: 'Sent and received messages' },
			{ name: 'Received', value: 'inbound', description: 'Only messages the chat sent in' },
			{ name: 'Sent', value: 'outbound', description: 'Only messages this instance sent' },
		],
		description: 'Which messages to include',
	},
	filtersCollection([
		{
			displayName: 'Since',
			name: 'since',
			type: 'dateTime',
			default: '',
			description:
				'Only messages at or after this time. In the time zone of the workflow unless an offset is given.',
		},
		{
			displayName: 'Until',
			name: 'until',
			type: 'dateTime',
			default: '',
			description:
				'Only messages before this time. In the time zone of the workflow unless an offset is given.',
		},
	]),
	{
		...simplifyField,
		description:
			'Whether to return only who wrote each message, when, which way, its kind, its text, the button it taps and its file described (small enough for an AI model) instead of the full messages',
	},
];

export const scope = api.workspace.messages.list.scope;
export const readsNumbers = true;
export const output = SimpleMessage;

export const fields = {
	instanceId: 'Instance',
	chatId: 'Chat',
	'query.chatId': 'Chat',
	'query.order': 'Order',
	'query.direction': 'Direction',
	'query.since': 'Since',
	'query.until': 'Until',
};

/** The words an expression (or an AI model, through $fromAI) may give for a direction. */
const DIRECTIONS: Record<string, 'inbound' | 'outbound' | undefined> = {
	both: undefined,
	all: undefined,
	'': undefined,
	in: 'inbound',
	inbound: 'inbound',
	received: 'inbound',
	out: 'outbound',
	outbound: 'outbound',
	sent: 'outbound',
};

export async function execute(this: IExecuteFunctions, item: OperationContext<WorkspaceClient>) {
	const { client, itemIndex, defaultCountry } = item;
	const { instanceId, chatId } = chatOf(this, itemIndex, defaultCountry);
	const order = String(this.getNodeParameter('order', itemIndex, 'newest'))
		.trim()
		.toLowerCase();
	const directionWord = String(this.getNodeParameter('direction', itemIndex, 'both'))
		.trim()
		.toLowerCase();
	// A word not in the table goes to the client as it is, whose check names the field.
	const direction = directionWord in DIRECTIONS ? DIRECTIONS[directionWord] : directionWord;
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const time = (name: 'since' | 'until', label: string) =>
		filters[name] !== undefined && filters[name] !== ''
			? { [name]: readDateTime(this, filters[name], label, itemIndex) }
			: {};
	const query = {
		chatId,
		order: order as 'newest' | 'oldest',
		...(direction ? { direction: direction as 'inbound' | 'outbound' } : {}),
		...time('since', 'Since'),
		...time('until', 'Until'),
	};
	const messages = await client.messages.list.all(
		{ instanceId, query },
		{ max: maxResults(this, itemIndex) },
	);
	return simplifyWanted(this, itemIndex) ? messages.map(simplifyMessage) : messages;
}
