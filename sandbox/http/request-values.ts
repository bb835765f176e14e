import { z } from 'zod/v4';

import { issueText } from '../../src/client/issue-text';
import { HttpError, type ErrorDetail } from '../errors';

/**
 * What a request carries, read as the contract's schemas expect it: a path segment decoded, query strings and
 * form fields turned into the types they stand for, and the schema's issues named by field.
 */

/** A percent-encoded path segment, decoded; a 400 naming `name` when the encoding is broken. */
export function decodeSegment(value: string, name: string): string {
	try {
		return decodeURIComponent(value);
	} catch {
		return invalidEncoding(name);
	}
}

function invalidEncoding(name: string): never {
	throw new HttpError(400, 'validation_failed', `${name} is not valid percent-encoding`, [
		{ field: name, message: 'invalid percent-encoding' },
	]);
}

/** Query strings and form fields are text; the contract's schemas expect numbers, booleans, arrays... */
export function coerceFields(
	schema: z.ZodType | undefined,
	raw: Record<string, string | string[]>,
): Record<string, unknown> {
	const shape = schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>) : {};
	const result: Record<string, unknown> = {};
	for (const [name, value] of Object.entries(raw)) {
		const field = shape[name];
		result[name] = field ? coerce(unwrap(field), value) : value;
	}
	return result;
}

function unwrap(schema: z.ZodType): z.ZodType {
	let current = schema;
	while (
		current instanceof z.ZodOptional ||
		current instanceof z.ZodDefault ||
		current instanceof z.ZodNullable
	) {
		current = current.def.innerType as z.ZodType;
	}
	return current;
}

function coerce(schema: z.ZodType, value: string | string[]): unknown {
	if (schema instanceof z.ZodArray && Array.isArray(value)) return value;
	const text = Array.isArray(value) ? value[value.length - 1] : value;
	if (schema instanceof z.ZodNumber && /^-?\d+(\.\d+)?$/.test(text)) return Number(text);
	if (schema instanceof z.ZodBoolean && (text === 'true' || text === 'false'))
		return text === 'true';
	if (
		schema instanceof z.ZodArray ||
		schema instanceof z.ZodObject ||
		schema instanceof z.ZodRecord
	) {
		try {
			return JSON.parse(text);
		} catch {
			return text;
		}
	}
	// Left as text: the schema then names the field in its error.
	return text;
}

/** `URLSearchParams` into a record; a repeated name becomes an array. */
export function queryRecord(search: URLSearchParams): Record<string, string | string[]> {
	const record: Record<string, string | string[]> = {};
	for (const [name, value] of search) {
		const existing = record[name];
		if (existing === undefined) record[name] = value;
		else record[name] = Array.isArray(existing) ? [...existing, value] : [existing, value];
	}
	return record;
}

/** Runs a schema, turning its issues into `details` naming each field (`body.to`, `query.limit`). */
export function validate<T extends z.ZodType>(
	schema: T,
	value: unknown,
	place: string,
	details: ErrorDetail[],
): z.output<T> | undefined {
	const result = schema.safeParse(value);
	if (result.success) return result.data;
	for (const issue of result.error.issues) {
		const field = [place, ...issue.path.map(String)].filter(Boolean).join('.');
		details.push({ field: field || place, message: issueText(issue, value) });
	}
	return undefined;
}
