import type { INode } from 'n8n-workflow';

import { toE164 } from '../../src/client/phone-number';
import { invalidValue } from './input-errors';

/**
 * A phone number as a person types it, in the one form the service takes (E.164), by the client's rule
 * (`toE164`, shared with the sandbox console). Anything that cannot be a number is an input error naming the
 * field and the item, thrown before any request is made.
 */
export function normalisePhoneNumber(
	value: unknown,
	field: string,
	itemIndex: number,
	node: INode,
): string {
	const result = toE164(value);
	if ('number' in result) return result.number;
	throw invalidValue(node, field, itemIndex, result.problem, result.hint);
}

/**
 * Several numbers in one field, separated by commas, semicolons or new lines (or given as an array by an
 * expression), each normalised; an empty list is an input error.
 */
export function normalisePhoneNumbers(
	value: unknown,
	field: string,
	itemIndex: number,
	node: INode,
): string[] {
	const parts = (Array.isArray(value) ? value : String(value ?? '').split(/[,;\n]/))
		.map((part) => (typeof part === 'number' ? String(part) : String(part ?? '')).trim())
		.filter((part) => part !== '');
	if (parts.length === 0) {
		throw invalidValue(
			node,
			field,
			itemIndex,
			'enter at least one phone number',
			'Separate several numbers with commas, such as +14155550123, +442079460958.',
		);
	}
	return parts.map((part) => normalisePhoneNumber(part, field, itemIndex, node));
}

/**
 * A recipient: a group ID (ending in `@g.us`) as it is, a person's chat ID (`<digits>@s.whatsapp.net`, as every
 * message carries it in `chatId`) as its number, or a phone number, normalised. So "reply to this chat" is one
 * expression, `chatId`, whether the chat is a person or a group.
 */
export function normaliseRecipient(
	value: unknown,
	field: string,
	itemIndex: number,
	node: INode,
): string {
	const text = typeof value === 'string' ? value.trim() : value;
	if (typeof text === 'string' && /^[\w.-]+@g\.us$/.test(text)) return text;
	const person = typeof text === 'string' ? /^(\d+)@s\.whatsapp\.net$/.exec(text) : null;
	if (person) return normalisePhoneNumber(`+${person[1]}`, field, itemIndex, node);
	return normalisePhoneNumber(text, field, itemIndex, node);
}
