/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the sandbox runs in plain Node, never inside n8n */
import type { IncomingMessage } from 'node:http';

import { coerceFields, decodeSegment, queryRecord, validate } from '../request-values';
import { HttpError, validationFailed, type ErrorDetail } from '../../errors';
import { UploadedFilePart } from '../../../src/client/resources/message-sends';
import type { Route } from '../routes';
import { parseJson, readBody } from './body';
import { parseMultipart, type UploadedFile } from '../multipart';

/** Bytes a request body may have: JSON bodies, and multipart media uploads. */
export interface BodyLimits {
	json: number;
	upload: number;
}

/** What a route's handler is given: params, query and body, each checked by the operation's own schemas. */
export interface RouteInput {
	params: Record<string, string>;
	query: Record<string, unknown>;
	body: unknown;
	file: UploadedFile | undefined;
}

/**
 * Parses and validates params, query and body (read here, or given when it was read already to check its
 * signature); one 400 names every field that is wrong.
 */
export async function readInput(
	req: IncomingMessage,
	url: URL,
	route: Route,
	rawParams: Record<string, string>,
	limits: BodyLimits,
	body?: Buffer,
): Promise<RouteInput> {
	const { operation } = route;
	const details: ErrorDetail[] = [];
	const decoded: Record<string, string> = {};
	for (const [name, value] of Object.entries(rawParams)) decoded[name] = decodeSegment(value, name);
	const params = operation.params ? validate(operation.params, decoded, '', details) : {};
	const rawQuery = queryRecord(url.searchParams);
	const query = operation.query
		? validate(operation.query, coerceFields(operation.query, rawQuery), 'query', details)
		: {};
	if (!operation.query && Object.keys(rawQuery).length > 0) {
		details.push(
			...Object.keys(rawQuery).map((name) => ({
				field: `query.${name}`,
				message: 'unknown query parameter',
			})),
		);
	}

	const raw = body ?? (await readRouteBody(req, route, limits));
	let input: unknown = {};
	let file: UploadedFile | undefined;
	if (operation.upload) {
		const contentType = req.headers['content-type'] ?? '';
		if (!/^multipart\/form-data/i.test(contentType)) {
			throw new HttpError(
				400,
				'invalid_content_type',
				'A media upload is sent as multipart/form-data',
			);
		}
		const multipart = parseMultipart(raw, contentType);
		input = coerceFields(operation.body, multipart.fields);
		file = multipart.files.find((part) => part.fieldName === 'file');
		if (file) validate(UploadedFilePart, file, 'body.file', details);
	} else if (raw.length > 0) {
		input = parseJson(raw);
	}
	const validBody = operation.body ? validate(operation.body, input, 'body', details) : undefined;
	if (details.length > 0) throw validationFailed(details);
	return {
		params: params as Record<string, string>,
		query: (query ?? {}) as Record<string, unknown>,
		body: validBody,
		file,
	};
}

/** The request's whole body, within the route's limit. */
export function readRouteBody(req: IncomingMessage, route: Route, limits: BodyLimits) {
	return readBody(req, route.operation.upload ? limits.upload : limits.json);
}
