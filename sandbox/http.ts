/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the sandbox runs in plain Node, never inside n8n */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod/v4';

/**
 * Small HTTP helpers of the sandbox: errors in the contract's shape, body reading with a size limit,
 * multipart parsing, and turning query strings into the types the contract's schemas expect.
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

export function sendJson(
	res: ServerResponse,
	status: number,
	body: unknown,
	headers: Record<string, string> = {},
): void {
	for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
	if (body === undefined) {
		res.writeHead(status);
		res.end();
		return;
	}
	const text = JSON.stringify(body);
	res.writeHead(status, {
		'Content-Type': 'application/json; charset=utf-8',
		'Content-Length': Buffer.byteLength(text),
	});
	res.end(text);
}

export function errorBody(error: HttpError, requestId: string) {
	return { error: { code: error.code, message: error.message, details: error.details, requestId } };
}

/** Reads the whole body; past `limit` bytes it stops reading and answers 413. */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
	const declared = Number(req.headers['content-length']);
	if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of req) {
		size += (chunk as Buffer).length;
		if (size > limit) throw tooLarge(limit);
		chunks.push(chunk as Buffer);
	}
	return Buffer.concat(chunks);
}

function tooLarge(limit: number) {
	return new HttpError(413, 'payload_too_large', `The request body is larger than ${limit} bytes`);
}

export interface UploadedFile {
	fieldName: string;
	fileName: string;
	mimeType: string;
	data: Buffer;
}

export interface Multipart {
	fields: Record<string, string>;
	files: UploadedFile[];
}

/** Parses multipart/form-data (RFC 7578): text fields, and parts with a filename as files. */
export function parseMultipart(body: Buffer, contentType: string): Multipart {
	const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
	if (!boundary)
		throw new HttpError(400, 'invalid_multipart', 'The multipart body has no boundary');
	const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
	const result: Multipart = { fields: {}, files: [] };

	let position = body.indexOf(delimiter);
	if (position < 0)
		throw new HttpError(400, 'invalid_multipart', 'The multipart body has no parts');
	for (;;) {
		position += delimiter.length;
		// `--` right after a delimiter closes the body.
		if (body.subarray(position, position + 2).toString() === '--') return result;
		position += 2; // the CRLF after the delimiter
		const next = body.indexOf(delimiter, position);
		if (next < 0)
			throw new HttpError(400, 'invalid_multipart', 'The multipart body is not terminated');
		const part = body.subarray(position, next - 2); // without the CRLF before the next delimiter
		const headerEnd = part.indexOf('\r\n\r\n');
		if (headerEnd < 0)
			throw new HttpError(400, 'invalid_multipart', 'A multipart part has no headers');
		const headers = part.subarray(0, headerEnd).toString('utf8');
		const content = part.subarray(headerEnd + 4);
		const disposition = /content-disposition:[^\r\n]*/i.exec(headers)?.[0] ?? '';
		const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
		const fileName = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
		if (name === undefined)
			throw new HttpError(400, 'invalid_multipart', 'A multipart part has no name');
		if (fileName !== undefined) {
			const mimeType =
				/content-type:\s*([^\r\n;]+)/i.exec(headers)?.[1]?.trim() ?? 'application/octet-stream';
			result.files.push({
				fieldName: decodeQuoted(name),
				fileName: decodeQuoted(fileName),
				mimeType,
				data: content,
			});
		} else {
			result.fields[decodeQuoted(name)] = content.toString('utf8');
		}
		position = next;
	}
}

/** The client percent-encodes `"`, CR, LF and `\` in names (see src/client/multipart.ts). */
function decodeQuoted(value: string): string {
	return value.replace(/%(22|0D|0A|5C)/gi, (encoded) => decodeURIComponent(encoded));
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
		details.push({ field: field || place, message: issue.message });
	}
	return undefined;
}
