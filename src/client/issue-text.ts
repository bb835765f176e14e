import { characterCount } from './schemas';
import { z } from './zod';

/**
 * What is wrong with a value, said as a person would: "at most 3 buttons; there are 4", "must be a number; it is
 * text". The one place a zod issue becomes words, for the nodes' errors (through the client's request checks) and
 * the sandbox's 400 answers alike. A message a schema of the contract wrote itself is kept; zod's defaults ("Too
 * big: expected array to have <=3 items") are reworded. No `<` or `>` either: n8n's editor shows an error's
 * detail as HTML, where `<=3` starts a tag and cuts the line there.
 */

type Issue = z.core.$ZodIssue;

/**
 * zod's own English wording of an issue, to tell a schema's message from the default. Looked up with care: at run
 * time zod is n8n's copy, and this file must load whatever that copy offers (without it, every message is kept).
 */
const english = (z as { locales?: { en?: () => { localeError?: unknown } } }).locales?.en?.()
	.localeError as ((issue: never) => string | { message?: string }) | undefined;

function defaultMessage(issue: Issue): string | undefined {
	try {
		const said = english?.(issue as never);
		return typeof said === 'string' ? said : said?.message;
	} catch {
		return undefined;
	}
}

/** The value an issue is about, found along its path in what was checked. */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
	let value = input;
	for (const key of path) {
		if (value === null || typeof value !== 'object') return undefined;
		value = (value as Record<PropertyKey, unknown>)[key];
	}
	return value;
}

/** One entry of a list, by the list's field name: `buttons` → "button", `phoneNumbers` → "phone number". */
function entryOf(path: readonly PropertyKey[]): string {
	const last = [...path].reverse().find((key) => typeof key === 'string');
	if (typeof last !== 'string') return 'item';
	const words = last.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
	return words.endsWith('s') && words.length > 1 ? words.slice(0, -1) : words;
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** What a value is, in a word: "text", "a number", "a list". */
function kindOf(value: unknown): string {
	if (value === undefined) return 'missing';
	if (value === null) return 'empty (null)';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'string') return 'text';
	if (typeof value === 'number') return Number.isNaN(value) ? 'not a number' : 'a number';
	if (typeof value === 'boolean') return value ? 'true' : 'false';
	if (typeof value === 'object') return 'an object';
	return `a ${typeof value}`;
}

const EXPECTED: Record<string, string> = {
	string: 'text',
	number: 'a number',
	int: 'a whole number',
	bigint: 'a whole number',
	boolean: 'true or false',
	array: 'a list',
	object: 'an object',
	date: 'a date',
	null: 'empty (null)',
};

const FORMATS: Record<string, string> = {
	email: 'an email address',
	url: 'a URL (http:// or https://)',
	uuid: 'a UUID',
	datetime: 'a date and time, like 2026-11-24T10:00:00Z',
	date: 'a date, like 2026-11-24',
	time: 'a time, like 10:00:00',
	base64: 'base64 text',
	e164: 'an international number, like +14155550123',
};

const quoted = (values: readonly unknown[]) =>
	values.map((value) => JSON.stringify(value)).join(', ');

/** Bounds of numbers and dates, in words. */
function bound(kind: 'most' | 'least', limit: unknown, inclusive: boolean | undefined): string {
	const value = limit instanceof Date ? limit.toISOString() : String(limit);
	if (inclusive === false) return `${kind === 'most' ? 'less' : 'more'} than ${value}`;
	return `at ${kind} ${value}`;
}

function reworded(issue: Issue, value: unknown): string {
	switch (issue.code) {
		case 'invalid_type': {
			if (value === undefined) return 'is required';
			const expected = EXPECTED[issue.expected] ?? issue.expected;
			// A number of the wrong kind (a fraction where a whole number goes) is shown as it is.
			const given =
				typeof value === 'number' && Number.isFinite(value) ? String(value) : kindOf(value);
			return `must be ${expected}; it is ${given}`;
		}
		case 'too_big':
		case 'too_small': {
			const most = issue.code === 'too_big';
			const limit = Number(most ? issue.maximum : issue.minimum);
			const word = most ? 'most' : 'least';
			if (issue.origin === 'string') {
				const count = typeof value === 'string' ? characterCount(value) : undefined;
				if (!most && limit === 1 && count === 0) return 'must not be empty';
				return `at ${word} ${plural(limit, 'character')}${count === undefined ? '' : `; this one has ${count}`}`;
			}
			if (issue.origin === 'array' || issue.origin === 'set') {
				const count = Array.isArray(value) ? value.length : undefined;
				const entry = entryOf(issue.path);
				if (!most && limit === 1 && count === 0) return `needs at least one ${entry}`;
				const there = count === undefined ? '' : `; there ${count === 1 ? 'is' : 'are'} ${count}`;
				return `at ${word} ${plural(limit, entry)}${there}`;
			}
			const limitValue = most ? issue.maximum : issue.minimum;
			const shown =
				typeof value === 'number' || value instanceof Date ? `; it is ${String(value)}` : '';
			return `must be ${bound(word, limitValue, issue.inclusive)}${shown}`;
		}
		case 'invalid_format': {
			const detail = issue as { prefix?: string; suffix?: string; includes?: string };
			if (issue.format === 'starts_with') return `must start with "${detail.prefix}"`;
			if (issue.format === 'ends_with') return `must end with "${detail.suffix}"`;
			if (issue.format === 'includes') return `must contain "${detail.includes}"`;
			const form = FORMATS[issue.format];
			return form ? `must be ${form}` : 'is not in the form this field takes';
		}
		case 'not_multiple_of':
			return Number(issue.divisor) === 1
				? 'must be a whole number'
				: `must be a multiple of ${String(issue.divisor)}`;
		case 'unrecognized_keys':
			return `${issue.keys.length === 1 ? 'has a field' : 'has fields'} it does not take: ${quoted(issue.keys)}`;
		case 'invalid_value':
			return issue.values.length === 1
				? `must be ${quoted(issue.values)}`
				: `must be one of ${quoted(issue.values)}`;
		case 'invalid_union':
			return 'is not in any of the forms this field takes';
		case 'invalid_key':
			return 'has a key this field does not take';
		case 'invalid_element':
			return 'has an entry this field does not take';
		default:
			return 'is not valid';
	}
}

/** The issue in words; `input` is the whole value that was checked (the issue's path leads into it). */
export function issueText(issue: Issue, input: unknown): string {
	try {
		const value = valueAt(input, issue.path ?? []);
		// zod words its default from the value, which a finished issue no longer carries: given back for the check.
		const message = issue.message;
		if (message && message !== defaultMessage({ ...issue, input: value } as Issue)) {
			return message;
		}
		return reworded(issue, value);
	} catch {
		// Wording an error never throws: zod's own message, or a plain one.
		return (issue as { message?: unknown } | null)?.message === undefined
			? 'is not valid'
			: String(issue.message);
	}
}
