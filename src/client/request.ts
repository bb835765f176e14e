import { randomUUID } from 'crypto';
import type { z } from 'zod/v4';

import { RequestValidationError, type ValidationIssue } from './errors';
import { issueText } from './issue-text';
import { encodeMultipart, type UploadFile } from './multipart';
import { API_PREFIX, type Operation } from './operation';
import { UploadedFilePart } from './resources/message-sends';
import { SIGNATURE_HEADER, signedRequestPayload, signPayload } from './signature';
import type { HttpRequest } from './transport';

type AnyInput = Record<string, unknown>;

/** What a request needs besides the operation and its input. */
export interface RequestSettings {
	/** Normalised: no trailing slash or `/api/v1`. */
	baseUrl: string;
	/** See `CallOptions.idempotencyKey`: a string to send, undefined to make one, null for none. */
	idempotencyKey?: string | null;
	/** See `CallOptions.signingSecret`. */
	signingSecret?: string;
	timeoutMs: number;
}

/**
 * The HTTP request for one call of an operation: validates the input (throwing `RequestValidationError`
 * with every bad field), fills the path, encodes the query and the body (JSON or multipart), and adds an
 * `Idempotency-Key` to a creating write, and the signature to an operation signed with a webhook's secret.
 * The same request is resent as is on each retry.
 */
export function buildRequest(
	operation: Operation,
	rawInput: unknown,
	settings: RequestSettings,
): HttpRequest {
	const input = (rawInput ?? {}) as AnyInput;
	const issues: ValidationIssue[] = [];
	const paramNames = Object.keys(operation.params?.shape ?? {});
	const params = validate(
		operation.params,
		Object.fromEntries(paramNames.map((name) => [name, input[name]])),
		'',
		issues,
	) as Record<string, string> | undefined;
	const query = validate(operation.query, input.query, 'query', issues) as AnyInput | undefined;
	const body = validate(operation.body, input.body, 'body', issues) as AnyInput | undefined;
	const file = input.file as UploadFile | undefined;
	if (operation.upload && (!file || !Buffer.isBuffer(file.data))) {
		issues.push({ field: 'file', message: 'a file (binary data) is required' });
	} else if (operation.upload) {
		// Its name and type go into the part's headers: a CR or LF there would forge a header.
		validate(UploadedFilePart, file, 'file', issues);
	}
	if (operation.signed === 'webhookSecret' && !settings.signingSecret) {
		issues.push({ field: 'signingSecret', message: "the webhook's secret is required to sign" });
	}
	if (issues.length > 0) throw new RequestValidationError(issues);

	const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
		encodeURIComponent(params?.[name] ?? ''),
	);
	const headers: Record<string, string> = {
		Accept: operation.binary ? '*/*' : 'application/json',
	};
	let payload: string | Buffer | undefined;
	if (operation.upload) {
		const multipart = encodeMultipart(body ?? {}, file as UploadFile);
		payload = multipart.body;
		headers['Content-Type'] = multipart.contentType;
	} else if (operation.body) {
		payload = JSON.stringify(body);
		headers['Content-Type'] = 'application/json';
	}
	const idempotencyKey =
		operation.creates && settings.idempotencyKey !== null
			? (settings.idempotencyKey ?? randomUUID())
			: undefined;
	if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
	if (operation.signed === 'webhookSecret' && settings.signingSecret) {
		headers[SIGNATURE_HEADER] = signPayload(
			settings.signingSecret,
			signedRequestPayload(operation.method, `${API_PREFIX}${path}`, payload),
		);
	}

	return {
		method: operation.method,
		url: `${settings.baseUrl}${API_PREFIX}${path}${queryString(query)}`,
		headers,
		body: payload,
		timeoutMs: settings.timeoutMs,
		...(operation.binary ? { binary: true } : {}),
	};
}

/** Validates one part of the input, naming each bad field with its place (`body.to`, `query.limit`). */
function validate(
	schema: z.ZodType | undefined,
	value: unknown,
	place: string,
	issues: ValidationIssue[],
) {
	if (!schema) return value;
	const result = schema.safeParse(value ?? {});
	if (result.success) return result.data;
	for (const issue of result.error.issues) {
		const path = issue.path.map(String);
		issues.push({
			field: [place, ...path].filter(Boolean).join('.') || place,
			message: issueText(issue, value ?? {}),
		});
	}
	return undefined;
}

function queryString(query: Record<string, unknown> | undefined): string {
	const search = new URLSearchParams();
	for (const [name, value] of Object.entries(query ?? {})) {
		if (value === undefined || value === null) continue;
		for (const item of Array.isArray(value) ? value : [value]) search.append(name, String(item));
	}
	const text = search.toString();
	return text ? `?${text}` : '';
}
