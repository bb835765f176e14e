import { DateTime } from 'luxon';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { listEntries } from '../../src/client/lists';
import { invalidValue } from './input-errors';

/**
 * Turning what the user entered into what the API takes. Each function names the field and the item when the
 * value cannot be used, before any request is sent.
 */

/** IDs, event types or answers typed as a list (`listEntries`, the one list rule); anything unusable is no entry. */
export function splitList(value: unknown): string[] {
	return listEntries(value) ?? [];
}

/** A list field the user must get right (tags): `listEntries`, or an input error naming the field and the item. */
export function readList(
	context: IExecuteFunctions,
	value: unknown,
	field: string,
	itemIndex: number,
): string[] {
	const entries = listEntries(value);
	if (!entries) {
		throw invalidValue(
			context.getNode(),
			field,
			itemIndex,
			`enter ${field.toLowerCase()} separated by commas, or a list of texts`,
		);
	}
	return entries;
}

/** Removes the keys whose value is undefined or empty text (fields the user left out). */
export function compact<T extends IDataObject>(object: T): T {
	return Object.fromEntries(
		Object.entries(object).filter(([, value]) => value !== undefined && value !== ''),
	) as T;
}

/**
 * A date and time as ISO-8601 with an offset. The editor's date picker gives a local time without an offset,
 * which is read in the workflow's time zone; an expression may also give a Date or a Luxon DateTime.
 */
export function readDateTime(
	context: IExecuteFunctions,
	value: unknown,
	field: string,
	itemIndex: number,
): string {
	let parsed: DateTime | undefined;
	if (DateTime.isDateTime(value)) parsed = value;
	else if (value instanceof Date) parsed = DateTime.fromJSDate(value);
	else if (typeof value === 'string' && value.trim() !== '') {
		parsed = DateTime.fromISO(value.trim(), { zone: context.getTimezone(), setZone: true });
		if (!parsed.isValid) {
			parsed = DateTime.fromRFC2822(value.trim(), { zone: context.getTimezone(), setZone: true });
		}
	} else if (typeof value === 'number') parsed = DateTime.fromMillis(value);
	const iso = parsed?.isValid ? parsed.toISO() : null;
	if (!iso) {
		throw invalidValue(
			context.getNode(),
			field,
			itemIndex,
			'enter a date and time, like 2025-12-31T23:59:00Z',
		);
	}
	return iso;
}

/**
 * A JSON object field: accepts the JSON text the editor holds, or an object from an expression. Anything else
 * (invalid JSON, a list, a number) is an input error naming the field and the item, before any request.
 */
export function readJsonObject(
	context: IExecuteFunctions,
	value: unknown,
	field: string,
	itemIndex: number,
): IDataObject {
	const parsed = parseJsonField(context, value, field, itemIndex, {
		empty: {},
		example: 'a JSON object, such as {"orderId": 1042}, or an expression that gives an object',
	});
	if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
		const kind = parsed === null ? 'null' : Array.isArray(parsed) ? 'a list' : typeof parsed;
		throw invalidValue(
			context.getNode(),
			field,
			itemIndex,
			`it must be a JSON object, not ${kind}`,
			'Enter a JSON object, such as {"orderId": 1042}. To send a list, put it under a key: {"items": [...]}.',
		);
	}
	return parsed as IDataObject;
}

/**
 * A JSON list field (buttons, list rows): the JSON text the editor holds, or a list from an expression; each
 * entry an object. Anything else is an input error naming the field and the item, before any request.
 */
export function readJsonList(
	context: IExecuteFunctions,
	value: unknown,
	field: string,
	itemIndex: number,
): IDataObject[] {
	const parsed = parseJsonField(context, value, field, itemIndex, {
		empty: [],
		example:
			'a JSON list, such as [{"id": "yes", "title": "Yes"}], or an expression that gives one',
	});
	const entries = Array.isArray(parsed) ? parsed : undefined;
	const bad = entries?.findIndex(
		(entry) => entry === null || typeof entry !== 'object' || Array.isArray(entry),
	);
	if (!entries || (bad !== undefined && bad >= 0)) {
		throw invalidValue(
			context.getNode(),
			field,
			itemIndex,
			entries ? `entry ${(bad ?? 0) + 1} is not an object` : 'it must be a JSON list',
			'Enter a JSON list of objects, such as [{"id": "yes", "title": "Yes"}].',
		);
	}
	return entries as IDataObject[];
}

/** JSON text parsed (a value from an expression as it is; blank text as `empty`), or an input error. */
function parseJsonField(
	context: IExecuteFunctions,
	value: unknown,
	field: string,
	itemIndex: number,
	expected: { empty: unknown; example: string },
): unknown {
	if (typeof value !== 'string') return value;
	const text = value.trim();
	if (text === '') return expected.empty;
	try {
		return JSON.parse(text) as unknown;
	} catch (error) {
		throw invalidValue(
			context.getNode(),
			field,
			itemIndex,
			'it is not valid JSON',
			`${(error as Error).message}. Enter ${expected.example}.`,
		);
	}
}
