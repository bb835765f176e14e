import { NodeApiError, NodeOperationError, type INode, type JsonObject } from 'n8n-workflow';

import {
	ApiError,
	ConnectionError,
	MultichannelError,
	redactSecrets,
	RequestValidationError,
	TimeoutError,
	UnexpectedResponseError,
	type ValidationIssue,
} from '../../src/client';
import { apiError, plain } from './api-errors';
import type { ErrorContext, Mapping, NodeError } from './error-context';
import { invalidValueMessage, itemSuffix } from './input-errors';
import { cut, messageOf } from './redaction';
import { tooSlow, unreachable } from './unreachable';

/**
 * n8n's own errors, recognised by name rather than `instanceof`: n8n loads its own copy of n8n-workflow, and
 * the error n8n raised (a missing binary field, say) may come from another copy than the one this package
 * resolves, whose classes are then different objects. n8n-workflow names each error after its class.
 */
function isNodeOperationError(error: unknown): error is NodeOperationError {
	return (
		error instanceof NodeOperationError ||
		(error as Error | undefined)?.name === 'NodeOperationError'
	);
}

function isNodeApiError(error: unknown): error is NodeApiError {
	return error instanceof NodeApiError || (error as Error | undefined)?.name === 'NodeApiError';
}

/** One kind of error and the error n8n shows for it, in the style of the client's status → class table. */
interface Case {
	matches: (error: unknown) => boolean;
	map: (error: never, mapping: Mapping) => NodeError;
}

function when<E>(
	matches: (error: unknown) => error is E,
	map: (error: E, mapping: Mapping) => NodeError,
): Case {
	return { matches, map };
}

function instance<E>(Class: abstract new (...args: never[]) => E) {
	return (error: unknown): error is E => error instanceof Class;
}

/**
 * The one place where anything thrown while running an operation becomes the error n8n shows: API failures
 * become `NodeApiError`, input mistakes `NodeOperationError`, each with a message a person can act on, the
 * item it concerns, and nothing secret. The client's errors are already redacted; this redacts again with
 * the credential's own key, in case a server echoes it back.
 */
export function toNodeError(node: INode, error: unknown, context: ErrorContext): NodeError {
	const mapping: Mapping = {
		node,
		context,
		clean: (text: string) => redactSecrets(text, context.secrets ?? []),
		item: itemSuffix(context.itemIndex),
	};
	try {
		const found = CASES.find((mapped) => mapped.matches(error));
		return found ? found.map(error as never, mapping) : unknownError(error, mapping);
	} catch {
		// Mapping must never throw: whatever was thrown (a hostile shape, say), the item still fails with the
		// best message that can be read from it, and "Continue On Fail" still applies.
		return unknownError(error, mapping, {
			description: 'The error could not be read in full; this is what could be read of it.',
		});
	}
}

/** Anything else: the message that can be read from it, cleaned and cut. */
function unknownError(
	error: unknown,
	{ node, context, clean, item }: Mapping,
	extra: { description?: string } = {},
): NodeOperationError {
	return new NodeOperationError(node, `${cut(clean(messageOf(error))) || 'Unknown error'}${item}`, {
		itemIndex: context.itemIndex,
		...extra,
	});
}

/** Checked in order; the first that matches maps the error. */
const CASES: Case[] = [
	// Input mistakes the node itself reported: kept as they are, cleaned and tied to the item.
	when(isNodeOperationError, (error, { context, clean }) => {
		error.message = clean(error.message);
		if (error.description) error.description = clean(error.description);
		error.context ??= {};
		if (context.itemIndex !== undefined && error.context.itemIndex === undefined) {
			error.context.itemIndex = context.itemIndex;
		}
		return error;
	}),

	// A failure n8n's HTTP layer wrapped itself (TLS and the like): rebuilt from its message and code, so that
	// the request it carries (headers included) does not travel on.
	when(isNodeApiError, (error, { node, context, clean }) => {
		const itemIndex = context.itemIndex;
		const said = clean(error.message);
		const code = error.httpCode ?? undefined;
		if (code && !/^\d{3}$/.test(code)) {
			return new NodeApiError(
				node,
				{ message: said, systemErrorCode: code },
				{ ...unreachable(context.serviceUrl, code, said), itemIndex },
			);
		}
		return new NodeApiError(node, code ? { message: said, httpCode: code } : { message: said }, {
			message: said,
			description: error.description ? clean(error.description) : undefined,
			httpCode: code,
			itemIndex,
		});
	}),

	when(instance(RequestValidationError), (error, { node, context, clean }) => {
		const label = (issue: ValidationIssue) => fieldLabel(issue.field, context.fields);
		const [first] = error.issues;
		return new NodeOperationError(
			node,
			clean(
				first
					? invalidValueMessage(label(first), context.itemIndex, first.message)
					: `Invalid input${itemSuffix(context.itemIndex)}`,
			),
			{
				itemIndex: context.itemIndex,
				description: clean(
					error.issues.map((issue) => `${label(issue)}: ${issue.message}`).join('\n'),
				),
			},
		);
	}),

	when(instance(ApiError), apiError),

	when(instance(TimeoutError), (error, { node, context, clean }) => {
		return new NodeApiError(node, plain(error, clean), {
			message: tooSlow(error.origin ?? context.serviceUrl),
			description: clean(
				`${error.message}. The request was retried before giving up. Check that the base URL in the credential points at the service and that it is up.`,
			),
			itemIndex: context.itemIndex,
			failure: { cause: 'temporarily-unavailable' },
		});
	}),

	when(instance(ConnectionError), (error, { node, context, clean }) => {
		const { message, description } = unreachable(
			error.origin ?? context.serviceUrl,
			error.systemCode,
			clean(error.message),
		);
		return new NodeApiError(node, plain(error, clean), {
			message,
			description,
			itemIndex: context.itemIndex,
			failure: { cause: 'temporarily-unavailable' },
		});
	}),

	when(instance(UnexpectedResponseError), (error, { node, context, clean }) => {
		return new NodeApiError(node, plain(error, clean), {
			message: 'The Multichannel service sent an answer the node cannot read',
			description: clean(
				`${error.message}. Check that the base URL in the credential points at the Multichannel API.`,
			),
			itemIndex: context.itemIndex,
		});
	}),

	when(
		(error): error is MultichannelError =>
			error instanceof MultichannelError && error.code === 'invalid_base_url',
		(error, { node, context, clean }) =>
			new NodeOperationError(node, 'The base URL in the credential is not valid', {
				itemIndex: context.itemIndex,
				description: clean(
					`${error.message}. Enter the address of the Multichannel API, such as https://api.example.com.`,
				),
				failure: { cause: 'configuration-invalid' },
			}),
	),
];

/**
 * The JSON of the output item that replaces a failed one under "On Error: Continue": `error` is the message,
 * `details` what a later node may branch on. Only these two keys, so that n8n's "Continue (using error
 * output)" recognises the item as an error and routes it to the error output.
 */
export function errorJson(error: NodeError): JsonObject {
	const details: JsonObject = {};
	if (error.description) details.description = error.description;
	if (isNodeApiError(error) && error.httpCode) details.httpCode = error.httpCode;
	const { errorResponse } = error;
	if (errorResponse && typeof errorResponse.code === 'string') details.code = errorResponse.code;
	if (errorResponse && typeof errorResponse.requestId === 'string') {
		details.requestId = errorResponse.requestId;
	}
	if (error.context.itemIndex !== undefined) details.itemIndex = error.context.itemIndex as number;
	return { error: error.message, details };
}

/**
 * A field of the request as the user knows it. Entries of a list are numbered from 1 and named by the list's
 * `.*` name, fields inside them by their `.*.field` name: with `body.buttons.*` = "Button" and
 * `body.buttons.*.title` = "Title", `body.buttons.1.title` is "Button 2 › Title". Unnamed fields keep their
 * path.
 */
export function fieldLabel(field: string, names: Record<string, string> = {}): string {
	if (names[field]) return names[field];
	const labels: string[] = [];
	let pattern = '';
	let named = false;
	for (const part of field.split('.')) {
		const index = /^\d+$/.test(part) ? Number(part) : undefined;
		pattern = pattern === '' ? part : `${pattern}.${index === undefined ? part : '*'}`;
		const name = names[pattern];
		if (index !== undefined) {
			const list = labels.pop();
			labels.push(`${name ?? list ?? 'entry'} ${index + 1}`);
		} else if (name) {
			labels.push(name);
			named = true;
		} else if (named) labels.push(part);
	}
	return named ? labels.join(' › ') : field;
}
