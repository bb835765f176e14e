import type { z } from 'zod/v4';

import type { api } from '../../../src/client/api';
import type { SandboxCore } from '../../core';
import { HttpError, validationFailed } from '../../errors';
import type { KeyScope } from '../../store/key-kinds';
import type { MediaFile } from '../../files/media';
import type { UploadedFile } from '../multipart';
import { urlProblem, type OutboundPolicy } from '../../outbound/policy';

/**
 * What a handler gets: input already validated by the operation's own schemas (so its types come from the
 * contract), the workspace of the key, and the sandbox core. It returns the response body, which the
 * pipeline checks against the operation's response schema before sending.
 */

type Part<O, K extends string> = O extends { [P in K]: infer S extends z.ZodType }
	? z.output<S>
	: Record<string, never>;

export interface HandlerContext<O> {
	core: SandboxCore;
	workspaceId: string;
	/** The scopes of the caller's key; none for a signed call. */
	scopes: readonly KeyScope[];
	params: Part<O, 'params'>;
	query: Part<O, 'query'>;
	body: Part<O, 'body'>;
	/** The `file` part of a multipart upload. */
	file: UploadedFile | undefined;
}

/** The answer's body: the file itself for an operation answering a file (`binary`). */
export type HandlerResult<O> = O extends { binary: true }
	? MediaFile
	: O extends { response: infer R extends z.ZodType }
		? z.input<R>
		: void;

/** Synchronous, except where an operation must wait for something outside the sandbox (a sandbox-only redelivery). */
export type Handler<O> = (
	context: HandlerContext<O>,
) => HandlerResult<O> | Promise<HandlerResult<O>>;

export type ResourceHandlers<Operations> = { [K in keyof Operations]: Handler<Operations[K]> };

type Api = typeof api;

/** One handler per operation of the contract: the compiler says when one is missing. */
export type Handlers = { [S in keyof Api]: { [R in keyof Api[S]]: ResourceHandlers<Api[S][R]> } };

/** A type, not an interface: the contract's loose page schema wants an index signature. */
export type Page<T> = { data: T[]; nextCursor: string | null };

const DEFAULT_PAGE_SIZE = 20;

/**
 * Cursor pagination over an ordered list. The cursor names the last item returned (and its position, in case
 * that item is deleted meanwhile), so pages do not shift when items are added before the cursor.
 */
export function paginate<T extends { id: string }, V>(
	items: T[],
	query: { limit?: number; cursor?: string },
	present: (item: T) => V,
): Page<V> {
	const limit = query.limit ?? DEFAULT_PAGE_SIZE;
	let start = 0;
	if (query.cursor !== undefined) {
		const cursor = decodeCursor(query.cursor);
		const index = items.findIndex((item) => item.id === cursor.after);
		start = index >= 0 ? index + 1 : Math.min(cursor.position, items.length);
	}
	const slice = items.slice(start, start + limit);
	const last = slice[slice.length - 1];
	const more = start + limit < items.length && last !== undefined;
	return {
		data: slice.map(present),
		nextCursor: more ? encodeCursor({ after: last.id, position: start + slice.length }) : null,
	};
}

/**
 * A page of a list walked from its cursor on (`walk` yields each item after the one the cursor names, with
 * its position): it costs the page, not the list. The cursor names the last item returned and its position.
 */
export function paginateWalk<T extends { id: string }, V>(
	walk: (after: Cursor | undefined) => Iterable<{ item: T; position: number }>,
	query: { limit?: number; cursor?: string },
	present: (item: T) => V,
): Page<V> {
	const limit = query.limit ?? DEFAULT_PAGE_SIZE;
	const page: Array<{ item: T; position: number }> = [];
	let more = false;
	for (const entry of walk(query.cursor === undefined ? undefined : decodeCursor(query.cursor))) {
		if (page.length === limit) {
			more = true;
			break;
		}
		page.push(entry);
	}
	const last = page.at(-1);
	return {
		data: page.map(({ item }) => present(item)),
		nextCursor:
			more && last ? encodeCursor({ after: last.item.id, position: last.position }) : null,
	};
}

export interface Cursor {
	after: string;
	position: number;
}

function encodeCursor(cursor: Cursor): string {
	return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursor(text: string): Cursor {
	let cursor: Partial<Cursor> | undefined;
	try {
		cursor = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<Cursor>;
	} catch {
		cursor = undefined;
	}
	if (
		typeof cursor?.after !== 'string' ||
		typeof cursor.position !== 'number' ||
		cursor.position < 0
	) {
		throw new HttpError(400, 'invalid_cursor', 'The cursor is not one this service returned', [
			{ field: 'query.cursor', message: 'unknown cursor' },
		]);
	}
	return cursor as Cursor;
}

/** A validated date-time as the instant the sandbox stores (ISO, UTC, milliseconds). */
export function instant(value: string | null): string | null {
	return value === null ? null : new Date(value).toISOString();
}

export function newestFirst<T>(items: T[]): T[] {
	// Records are kept in creation order, so newest first is that order reversed (stable for equal times).
	return [...items].reverse();
}

/** A multipart upload's `file` part, which the contract cannot require. */
export function requireFile(file: UploadedFile | undefined): UploadedFile {
	if (!file) {
		throw new HttpError(400, 'validation_failed', 'The upload needs a file part named "file"', [
			{ field: 'file', message: 'required' },
		]);
	}
	return file;
}

/** 400 naming `body.url` when the outbound policy refuses it (sandbox/outbound/policy.ts). */
export function checkUrl(url: string, policy: OutboundPolicy): void {
	const problem = urlProblem(url, policy);
	if (problem) throw validationFailed([{ field: 'body.url', message: problem }]);
}
