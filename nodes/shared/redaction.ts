import type { JsonValue } from 'n8n-workflow';

/**
 * What an error may show of values it did not make: a service's `details`, a message, anything thrown. Each
 * is read defensively (a getter may throw, a proxy may refuse every access, an object may refer to itself),
 * redacted as parsed values, string by string, and cut to a size a person can read. Nothing here throws.
 */

/** Longest text kept of one string value. */
export const TEXT_MAX = 1_000;
/** Most entries kept of a list, and keys of an object. */
export const ENTRIES_MAX = 20;
const DEPTH_MAX = 5;

export type Clean = (text: string) => string;

/** `String(value)`, or a placeholder when even that throws. */
export function safeText(value: unknown): string {
	try {
		return String(value);
	} catch {
		return '[unreadable value]';
	}
}

/** A text cut to `max` characters, marked when it was longer. */
export function cut(text: string, max = TEXT_MAX): string {
	return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** Redacts first, then cuts, so that a secret is never kept in part. */
function cleanText(text: string, clean: Clean): string {
	return cut(clean(text.slice(0, TEXT_MAX * 2)));
}

/** The message of anything thrown: an error's `message`, else the thing as text. */
export function messageOf(thrown: unknown): string {
	try {
		const message = (thrown as { message?: unknown } | null | undefined)?.message;
		if (typeof message === 'string') return message;
	} catch {
		// a message getter that throws: the value as text below
	}
	if (thrown !== null && typeof thrown === 'object') return '[unreadable error]';
	return safeText(thrown);
}

function read(object: object, key: string): unknown {
	try {
		return (object as Record<string, unknown>)[key];
	} catch {
		return '[unreadable]';
	}
}

function keysOf(object: object): string[] {
	try {
		return Object.keys(object);
	} catch {
		return [];
	}
}

/**
 * A JSON copy of a value with every string redacted: lists and objects cut to `ENTRIES_MAX` entries and
 * `DEPTH_MAX` levels, strings to `TEXT_MAX` characters, a reference to an enclosing object as "[circular]".
 */
export function redactedCopy(
	value: unknown,
	clean: Clean,
	depth = 0,
	enclosing: object[] = [],
): JsonValue {
	if (typeof value === 'string') return cleanText(value, clean);
	if (typeof value === 'boolean' || value === null) return value;
	if (typeof value === 'number') return Number.isFinite(value) ? value : safeText(value);
	if (value === undefined) return null;
	if (typeof value !== 'object') return cleanText(safeText(value), clean);
	if (enclosing.includes(value)) return '[circular]';
	if (depth >= DEPTH_MAX) return '[…]';
	const inner = [...enclosing, value];
	let isList = false;
	try {
		isList = Array.isArray(value);
	} catch {
		return '[unreadable]';
	}
	if (isList) {
		const list = value as unknown[];
		const copy = list
			.slice(0, ENTRIES_MAX)
			.map((entry) => redactedCopy(entry, clean, depth + 1, inner));
		if (list.length > ENTRIES_MAX) copy.push(`… ${list.length - ENTRIES_MAX} more`);
		return copy;
	}
	const copy: Record<string, JsonValue> = {};
	for (const key of keysOf(value).slice(0, ENTRIES_MAX)) {
		const entry = read(value, key);
		if (entry !== undefined)
			copy[cleanText(key, clean)] = redactedCopy(entry, clean, depth + 1, inner);
	}
	return copy;
}
