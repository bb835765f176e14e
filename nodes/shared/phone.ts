import type { INode } from 'n8n-workflow';

import { E164_PATTERN } from '../../src/client/schemas';
import { invalidValue } from './input-errors';

/** Characters people write between digits: spaces (also non-breaking), dashes, dots, slashes, parentheses. */
const SEPARATORS = /[\s\u00a0\u2010-\u2015\-./()]/g;

/**
 * A phone number as a person types it, in the one form the service takes (E.164): `+44 (20) 7946-0958`,
 * `0044 20 7946 0958`, `44.20.7946.0958` and `+442079460958` all become `+442079460958`. A number without `+`
 * or `00` is read as already starting with its country code. Anything that cannot be a number is an input
 * error naming the field and the item, thrown before any request is made.
 */
export function normalisePhoneNumber(
	value: unknown,
	field: string,
	itemIndex: number,
	node: INode,
): string {
	const given = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '';
	const compact = given.trim().replace(SEPARATORS, '');
	let number = compact;
	if (number.startsWith('00')) number = `+${number.slice(2)}`;
	else if (!number.startsWith('+')) number = `+${number}`;
	if (E164_PATTERN.test(number)) return number;

	const shown =
		given.trim() === ''
			? 'a phone number is required'
			: `"${given.trim()}" is not a valid phone number`;
	const reason = /[^\d+]/.test(compact)
		? 'It may contain only digits, a leading + or 00, spaces, dashes, dots and parentheses.'
		: 'An international number has its country code and 7 to 15 digits in all.';
	throw invalidValue(
		node,
		field,
		itemIndex,
		shown,
		`${reason} Enter it with its country code, such as +14155550123 or 0044 20 7946 0958.`,
	);
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

/** A recipient: a group ID (ending in `@g.us`) as it is, or a phone number, normalised. */
export function normaliseRecipient(
	value: unknown,
	field: string,
	itemIndex: number,
	node: INode,
): string {
	const text = typeof value === 'string' ? value.trim() : value;
	if (typeof text === 'string' && /^[\w.-]+@g\.us$/.test(text)) return text;
	return normalisePhoneNumber(text, field, itemIndex, node);
}
