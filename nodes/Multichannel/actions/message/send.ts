import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type CallOptions, type WorkspaceClient } from '../../../../src/client';
import { optionsCollection } from '../../../shared/collections';
import { concurrencyOption } from '../../../shared/execute';
import { idempotencyKeyOption, rerunProtectionOption, sendOnce } from '../../../shared/idempotency';
import { locatorValue } from '../../../shared/locator';
import { normaliseRecipient } from '../../../shared/phone';
import { compact, readDateTime } from '../../../shared/values';
import type { OperationContext } from '../../../shared/resources';
import { instanceLocator } from '../instance/locator';

/** An item of a send, as the node runs it: its client, position, Default Country and Options (read once). */
type SendItem = OperationContext<WorkspaceClient>;

/**
 * What every send shares: the instance it is sent from, the To field, the Options collection (reply to,
 * idempotency key, concurrency), the field names of its request, and how they are read. Send operations
 * import it whole: `send.target(this, item)`, `send.message(…)`.
 */

export const fromField: INodeProperties = {
	...instanceLocator,
	description: 'The instance to send from',
};

export const toField: INodeProperties = {
	displayName: 'To',
	name: 'to',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. +14155550123',
	description:
		"The phone number to send to (with its country code, or as written in the Default Country), a group ID ending in @g.us, the chat ID a received message carries in chatId, or a person who hides their number: their contact ID (ct_…, a received message's from) or @username",
};

/** Options of every send: reply to a message, Send At, the idempotency key, the re-run window and the concurrency. */
export function optionsField(extra: INodeProperties[] = [], quoting = true): INodeProperties {
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
	const sendAt: INodeProperties = {
		displayName: 'Send At',
		name: 'sendAt',
		type: 'dateTime',
		default: '',
		description:
			"Send the message at this time instead of now: from 1 minute to 90 days ahead. In the workflow's time zone (the workflow's Settings → Timezone, else n8n's) unless an offset is given, like 2026-12-01T09:00:00+01:00. The output is the message in status scheduled, its sendAt with the offset; Scheduled Message → Get Many lists it and Cancel stops it before it goes.",
	};
	const idempotencyKey: INodeProperties = {
		...idempotencyKeyOption,
		placeholder: 'e.g. order-1042-confirmation',
		description:
			'Requests with the same key and the same content within 24 hours take effect once; later ones get the first answer. Leave empty to derive one (see Re-Run Protection).',
		hint: 'Leave empty to derive one, so that a re-run or a retried item is not sent twice',
	};
	return optionsCollection(
		[idempotencyKey, rerunProtectionOption, concurrencyOption, sendAt, ...quote, ...extra].sort(
			(a, b) => a.displayName.localeCompare(b.displayName),
		),
	);
}

/** "Track Links" of the sends whose text or caption may hold URLs (the contract's `trackLinks`). */
export function trackLinksOption(where: string): INodeProperties {
	return {
		displayName: 'Track Links',
		name: 'trackLinks',
		type: 'boolean',
		default: false,
		description: `Whether to replace each http(s) link in the ${where} with a short link of its own for this message and recipient, so that the Multichannel Short Link Trigger tells who clicked it`,
	};
}

/** `{ trackLinks: true }` when the Track Links option is on; nothing otherwise. */
export function trackLinks(options: IDataObject): { trackLinks?: true } {
	return options.trackLinks === true ? { trackLinks: true } : {};
}

/**
 * What a send's operation file exports beside its option, fields and `execute`: the scope and answer of its
 * request, and that it takes numbers and may run several items at a time.
 */
export function operationBasics<Operation extends MessageSend | 'sendMediaUpload' | 'sendTyping'>(
	operation: Operation,
) {
	const request = api.workspace.messages[operation];
	return {
		scope: request.scope,
		readsNumbers: true as const,
		output: request.response as (typeof api.workspace.messages)[Operation]['response'],
		concurrent: true as const,
	};
}

/** Field names of a send's request, as the user sees them. */
export const fieldNames = {
	instanceId: 'Instance',
	'body.to': 'To',
	'body.quotedMessageId': 'Reply To Message ID',
	'body.trackLinks': 'Track Links',
	'body.sendAt': 'Send At',
};

/** `{ sendAt }` (ISO-8601 with an offset) when the Send At option is set; a value without offset is in the workflow's time zone. */
export function sendAt(
	context: IExecuteFunctions,
	{ itemIndex, options }: SendItem,
): { sendAt?: string } {
	const value = options.sendAt;
	if (value === undefined || value === null || value === '') return {};
	return { sendAt: readDateTime(context, value, 'Send At', itemIndex) };
}

/** Where a send goes: the instance it is sent from, and its recipient (a phone number, normalised, or a group). */
export function target(
	context: IExecuteFunctions,
	{ itemIndex, defaultCountry }: SendItem,
): { instanceId: string; to: string } {
	return {
		instanceId: locatorValue(context, 'instanceId', itemIndex),
		to: normaliseRecipient(
			context.getNodeParameter('to', itemIndex),
			'To',
			itemIndex,
			context.getNode(),
			defaultCountry,
		),
	};
}

/** The reply-to of a send, when one was given. */
export function quoted(options: IDataObject): { quotedMessageId?: string } {
	return compact({ quotedMessageId: (options.quotedMessageId as string | undefined)?.trim() });
}

/**
 * Sends one item once (`sendOnce`, `nodes/shared/idempotency.ts`): under the user's own key when given, else
 * under a key derived from the workflow, the node, the item's position, the operation and the request (the
 * instance and the exact body; an uploaded file as its hash). Running the workflow again with the same item
 * within the Re-Run Protection window, or n8n retrying it, gets the message already sent instead of a second one.
 */
export async function once<T extends { id: string; createdAt?: string }>(
	context: IExecuteFunctions,
	{ client, itemIndex, options }: SendItem,
	operation: string,
	instanceId: string,
	body: unknown,
	sendWith: (idempotencyKey: string) => Promise<T>,
): Promise<T> {
	return await sendOnce(
		context,
		itemIndex,
		options,
		{ operation, body: { instanceId, body } },
		sendWith,
		() => client.serverTime,
	);
}

/** The sends whose request is the instance and a JSON body, and whose answer is the message sent. */
type MessageSend =
	| 'sendText'
	| 'sendMedia'
	| 'sendLocation'
	| 'sendContactCard'
	| 'sendReaction'
	| 'sendPoll'
	| 'sendButtons'
	| 'sendList';
type Messages = WorkspaceClient['messages'];
type SendBody<Operation extends MessageSend> = NonNullable<
	Parameters<Messages[Operation]>[0]
>['body'];

/** Sends a message from the instance, once (`once` above). */
export async function message<Operation extends MessageSend>(
	context: IExecuteFunctions,
	item: SendItem,
	operation: Operation,
	instanceId: string,
	body: SendBody<Operation>,
): ReturnType<Messages['sendText']> {
	// Every one of these sends takes the same input and answers the same message; only the body's shape differs.
	const sendOne = item.client.messages[operation] as (
		input: { instanceId: string; body: SendBody<Operation> },
		options: CallOptions,
	) => ReturnType<Messages['sendText']>;
	// Send At, where the operation offers it (Send and Wait does not: its question goes now).
	body = { ...body, ...sendAt(context, item) };
	return await once(
		context,
		item,
		operation,
		instanceId,
		body,
		async (idempotencyKey) => await sendOne({ instanceId, body }, { idempotencyKey }),
	);
}
