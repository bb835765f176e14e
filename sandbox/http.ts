/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the sandbox runs in plain Node, never inside n8n */
import type { ServerResponse } from 'node:http';
import { z } from 'zod/v4';

import { issueText } from '../src/client/issue-text';

/**
 * Small HTTP helpers shared by the API, the console and the handlers: errors in the contract's shape, JSON
 * answers, and validating input with the contract's schemas (query strings turned into the types they expect).
 */

export interface ErrorDetail {
	field: string;
	message: string;
}

/** Thrown by handlers and the pipeline; becomes `{ error: { code, message, details, requestId } }`. */
export class HttpError extends Error {
	constructor(
		readonly status: number,
		readonly code: string,
		message: string,
		readonly details: unknown[] = [],
		readonly headers: Record<string, string> = {},
	) {
		super(message);
	}
}

export const notFound = (what: string, id: string) =>
	new HttpError(404, 'not_found', `${what} "${id}" was not found in this workspace`);

export const conflict = (code: string, message: string) => new HttpError(409, code, message);

/** A 400 naming every field that failed (`body.to: must be…; query.limit: …`). */
export function validationFailed(details: ErrorDetail[]): HttpError {
	return new HttpError(
		400,
		'validation_failed',
		`The request is invalid: ${details.map((detail) => `${detail.field}: ${detail.message}`).join('; ')}`,
		details,
	);
}

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

export function sendJson(
	res: ServerResponse,
	status: number,
	body: unknown,
	headers: Record<string, string> = {},
): void {
	sendJsonText(res, status, body === undefined ? undefined : JSON.stringify(body), headers);
}

/** An answer already serialised (undefined: no body). */
export function sendJsonText(
	res: ServerResponse,
	status: number,
	text: string | undefined,
	headers: Record<string, string> = {},
): void {
	for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
	if (text === undefined) {
		res.writeHead(status);
		res.end();
		return;
	}
	res.writeHead(status, {
		'Content-Type': 'application/json; charset=utf-8',
		'Content-Length': Buffer.byteLength(text),
	});
	res.end(text);
}

/**
 * A file as the answer: its bytes with Content-Type, Content-Length and a Content-Disposition naming the file
 * (`filename` in ASCII, `filename*` in UTF-8, RFC 6266).
 */
export function sendFile(
	res: ServerResponse,
	status: number,
	file: { data: Buffer; mimeType: string; fileName: string | null },
): void {
	const headers: Record<string, string | number> = {
		'Content-Type': file.mimeType,
		'Content-Length': file.data.length,
	};
	if (file.fileName) {
		const ascii = file.fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
		headers['Content-Disposition'] =
			`attachment; filename="${ascii}"; filename*=UTF-8''${encodeRfc5987(file.fileName)}`;
	} else {
		headers['Content-Disposition'] = 'attachment';
	}
	res.writeHead(status, headers);
	res.end(file.data);
}

/** Percent-encoding as RFC 5987 wants it: `encodeURIComponent` leaves `'()*` as they are. */
function encodeRfc5987(value: string): string {
	return encodeURIComponent(value).replace(
		/['()*]/g,
		(char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
	);
}

export function errorBody(error: HttpError, requestId: string) {
	return { error: { code: error.code, message: error.message, details: error.details, requestId } };
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
