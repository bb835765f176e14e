import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { Message } from '../../../../src/client/resources/messages';
import { normaliseRecipient } from '../../../shared/phone';
import { compact, sendOptions } from '../common';

/** Fields and helpers the message operations share. */

export const toField: INodeProperties = {
	displayName: 'To',
	name: 'to',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. +14155550123',
	description:
		'The phone number to send to, with its country code (spaces, dashes and a leading 00 are fine), or a group ID ending in @g.us',
};

export const messageIdField: INodeProperties = {
	displayName: 'Message ID',
	name: 'messageId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. msg_3c9e1f7a2b4d6e80',
	description: 'The ID of the message, as returned when it was sent or received',
};

/** Options of every send: reply to a message, plus the idempotency key and the concurrency. */
export function sendOptionsField(extra: INodeProperties[] = [], quoting = true): INodeProperties {
	const quote: INodeProperties[] = quoting
		? [
				{
					displayName: 'Reply To Message ID',
					name: 'quotedMessageId',
					type: 'string',
					default: '',
					placeholder: 'e.g. msg_3c9e1f7a2b4d6e80',
					description: 'The ID of a message to reply to; it is quoted above the new one',
				},
			]
		: [];
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [...sendOptions, ...quote, ...extra].sort((a, b) =>
			a.displayName.localeCompare(b.displayName),
		),
	};
}

export function recipient(context: IExecuteFunctions, itemIndex: number, field = 'to'): string {
	return normaliseRecipient(
		context.getNodeParameter(field, itemIndex),
		field === 'to' ? 'To' : field,
		itemIndex,
		context.getNode(),
	);
}

/** The reply-to of a send, when one was given. */
export function quoted(
	context: IExecuteFunctions,
	itemIndex: number,
): { quotedMessageId?: string } {
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return compact({ quotedMessageId: (options.quotedMessageId as string | undefined)?.trim() });
}

/** Field names of a send's request, as the user sees them. */
export const sendFields = {
	instanceId: 'Instance',
	'body.to': 'To',
	'body.quotedMessageId': 'Reply To Message ID',
};

/** The essentials of a message: who, what, its status and when. */
export function simplifyMessage(message: Message): IDataObject {
	return compact({
		id: message.id,
		instanceId: message.instanceId,
		chatId: message.chatId,
		direction: message.direction,
		from: message.from ?? undefined,
		to: message.to ?? undefined,
		type: message.type,
		status: message.status,
		text: typeof message.content?.text === 'string' ? message.content.text : undefined,
		error: message.error?.message,
		createdAt: message.createdAt,
	});
}
