import { E164_PATTERN } from './phone-number';
import { z } from './zod';

/**
 * Building blocks shared by every resource of the contract.
 *
 * Two rules run through all schemas:
 * - requests are strict (`z.strictObject`): an unknown or wrong field is an error before anything is sent;
 * - responses are lenient (`z.looseObject`, most fields optional): a real server may send more or less than
 *   our contract, and unknown fields are kept and passed on.
 */

/** Schemas named in the OpenAPI document's `components.schemas`. Private, so ids never clash with n8n's. */
export const contractRegistry = z.registry<{ id?: string } & Record<string, unknown>>();

/**
 * Names a schema in the document. `rules` is JSON Schema the document adds to it, for what zod checks in a
 * refinement that its JSON Schema cannot show (a field required when another has some value).
 */
export function named<T extends z.ZodType>(
	id: string,
	schema: T,
	rules: Record<string, unknown> = {},
): T {
	contractRegistry.add(schema, { ...rules, id });
	return schema;
}

/** JSON Schema keywords the document adds to a schema it does not name (kept by `.describe()` and the like). */
export function documented<T extends z.ZodType>(schema: T, keywords: Record<string, unknown>): T {
	contractRegistry.add(schema, keywords);
	return schema;
}

/** E.164 (`phone-number.ts`, which the console's browser script reads without zod). */
export { E164_PATTERN };

/** International number in E.164 form. Nodes normalise user input into this form. */
export const PhoneNumber = named(
	'PhoneNumber',
	z
		.string()
		.regex(E164_PATTERN, 'must be an international number in E.164 form, like +14155550123')
		.describe('Phone number in E.164 form'),
);

/** How many characters a text has as the channel shows them: Unicode code points (an emoji is one, not two). */
export function characterCount(value: string): number {
	return Array.from(value).length;
}

const characterWord = (count: number) => `${count} character${count === 1 ? '' : 's'}`;

/**
 * The length bounds of every bounded text of the contract, counted in characters (code points) as the channel
 * counts them, where zod's own `.min()`/`.max()` count UTF-16 units. The bounds go where zod's would (the
 * schema's `bag`), so the OpenAPI document still says `minLength`/`maxLength`, which count characters too.
 */
export function characters({ min = 0, max = Infinity }: { min?: number; max?: number }) {
	const check: z.core.$ZodCheck<string> = {
		_zod: {
			def: { check: 'custom' },
			onattach: [
				(schema) => {
					if (min > 0) schema._zod.bag.minimum = min;
					if (max < Infinity) schema._zod.bag.maximum = max;
				},
			],
			check(payload) {
				const count = characterCount(payload.value);
				const input = payload.value;
				if (count > max) {
					payload.issues.push({
						code: 'too_big',
						origin: 'string',
						maximum: max,
						inclusive: true,
						input,
						message: `at most ${characterWord(max)}; this one has ${count}`,
					});
				} else if (count < min) {
					payload.issues.push({
						code: 'too_small',
						origin: 'string',
						minimum: min,
						inclusive: true,
						input,
						message:
							count === 0
								? 'must not be empty'
								: `at least ${characterWord(min)}; this one has ${count}`,
					});
				}
			},
		},
	};
	return check;
}

/** A text of `min` to `max` characters. */
export function text(bounds: { min?: number; max?: number }) {
	return z.string().check(characters(bounds));
}

export const Id = text({ min: 1, max: 200 });
export const Timestamp = z.string().describe('ISO-8601 date-time');

/**
 * A date-time a request sends: RFC 3339 (what the document's `date-time` format means), so with seconds, and
 * with `Z` or an offset that exists (hours up to 23, minutes up to 59), so that every value accepted here is a real
 * instant (`+99:99` is refused, naming the field). The document says it as format `date-time` and this pattern,
 * which is the whole rule (in OAS 3.1 the pattern is the contract; a format may go unchecked): a day that exists
 * in its month, February 29 in leap years only, as zod's `iso.datetime` takes. Written with `[0-9]`, not `\d`,
 * which means more than ASCII digits to some engines.
 */
const DIGIT = '[0-9]';
const MONTH_DAY =
	`(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]${DIGIT}|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]${DIGIT}|30)` +
	`|02-(?:0[1-9]|1${DIGIT}|2[0-8]))`;
const LEAP_YEAR = `(?:${DIGIT}{2}(?:[2468][048]|[13579][26]|0[48])|(?:[02468][048]|[13579][26])00)`;
const DATE = `(?:${DIGIT}{4}-${MONTH_DAY}|${LEAP_YEAR}-02-29)`;
const HOUR = `(?:[01]${DIGIT}|2[0-3])`;
const MINUTE = `[0-5]${DIGIT}`;
const DATE_TIME_PATTERN = new RegExp(
	`^${DATE}T${HOUR}:${MINUTE}:${MINUTE}(?:\\.${DIGIT}+)?(?:Z|[+-]${HOUR}:${MINUTE})$`,
);
export const DateTimeInput = documented(
	z.iso
		.datetime({ offset: true })
		.refine(
			(value) => DATE_TIME_PATTERN.test(value),
			'must be a day that exists, with seconds, and Z or a time-zone offset between -23:59 and +23:59',
		),
	{ pattern: DATE_TIME_PATTERN.source },
);
export const Url = z.url({ protocol: /^https?$/ }).check(characters({ max: 2048 }));
export const Metadata = z.record(z.string(), z.unknown());

/** RFC 6838 names: a letter or digit, then up to 126 letters, digits or `!#$&-^_.+`. */
const MEDIA_TYPE_NAME = '[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}';
/** RFC 9110 parameters: `; name=value`, the value a token or a quoted string, in ASCII. */
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const QUOTED_STRING = '"(?:[\\t !#-\\[\\]-~]|\\\\[\\t -~])*"';
export const MIME_TYPE_PATTERN = new RegExp(
	`^${MEDIA_TYPE_NAME}/${MEDIA_TYPE_NAME}(?:[ \\t]*;[ \\t]*${TOKEN}=(?:${TOKEN}|${QUOTED_STRING}))*$`,
);
export const MIME_TYPE_MAX_LENGTH = 255;

/** A file's media type, as it goes out again in a download's Content-Type header. */
export const MimeType = named(
	'MimeType',
	z
		.string()
		.max(MIME_TYPE_MAX_LENGTH)
		.regex(
			MIME_TYPE_PATTERN,
			'must be a media type such as image/png or text/plain; charset=utf-8 (RFC 6838 type/subtype, in ASCII)',
		),
	{
		description: `A media type (RFC 6838): type/subtype, optionally followed by ; parameters, in ASCII, at most ${MIME_TYPE_MAX_LENGTH} characters.`,
	},
);

export const FILE_NAME_MAX_LENGTH = 255;
export const FileName = text({ min: 1, max: FILE_NAME_MAX_LENGTH });

/** How deep and how large free-form JSON a request carries may be (an automation event's payload). */
export const JSON_INPUT_MAX_DEPTH = 32;
export const JSON_INPUT_MAX_CHARACTERS = 65_536;

/** Whether objects and arrays in `value` nest deeper than `limit`; walked without recursion. */
function nestsDeeperThan(value: unknown, limit: number): boolean {
	const pending: Array<{ item: unknown; depth: number }> = [{ item: value, depth: 0 }];
	for (let next = pending.pop(); next; next = pending.pop()) {
		if (typeof next.item !== 'object' || next.item === null) continue;
		if (next.depth >= limit) return true;
		for (const child of Object.values(next.item))
			pending.push({ item: child, depth: next.depth + 1 });
	}
	return false;
}

/**
 * Any JSON object in a request, bounded: deeper or larger ones are refused naming the field, before they are
 * stored, since every later read and save of them would pay for them (or fail on them).
 */
export const JsonObjectInput = named(
	'JsonObjectInput',
	z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
		if (nestsDeeperThan(value, JSON_INPUT_MAX_DEPTH)) {
			ctx.addIssue({
				code: 'custom',
				message: `must not nest objects and arrays more than ${JSON_INPUT_MAX_DEPTH} levels deep`,
			});
		} else if (JSON.stringify(value).length > JSON_INPUT_MAX_CHARACTERS) {
			ctx.addIssue({
				code: 'custom',
				message: `must be at most ${JSON_INPUT_MAX_CHARACTERS} characters long as JSON`,
			});
		}
	}),
	{
		description: `Any JSON object, with objects and arrays nested at most ${JSON_INPUT_MAX_DEPTH} levels deep (the object itself is level 1) and at most ${JSON_INPUT_MAX_CHARACTERS} characters as JSON; a deeper or larger one is refused with 400 \`validation_failed\` naming the field.`,
	},
);

/** Path parameters are ids; the client encodes them, so any non-empty id is accepted. */
export function pathParams<K extends string>(...names: K[]) {
	const shape = {} as Record<K, typeof Id>;
	for (const name of names) shape[name] = Id;
	return z.strictObject(shape);
}

export const ListQuery = z.strictObject({
	limit: z.number().int().min(1).max(100).optional().describe('Page size, 1–100 (default 20)'),
	cursor: text({ min: 1, max: 1000 })
		.regex(/^[A-Za-z0-9_-]+$/, 'must be the nextCursor of a page, as it came')
		.optional()
		.describe(
			'`nextCursor` of the previous page, as it came (base64url); a cursor the service did not return is 400 `invalid_cursor`',
		),
});

/** `{ data: [...], nextCursor }`: every list endpoint answers with one page of this shape. */
export function page<T extends z.ZodType>(item: T) {
	return z.looseObject({
		data: z.array(item),
		nextCursor: z.string().nullable().optional(),
	});
}

export const ErrorBody = named(
	'Error',
	z.looseObject({
		error: z.looseObject({
			code: z.string().describe('snake_case error code, e.g. `validation_failed`'),
			message: z.string(),
			details: z.array(z.unknown()).optional(),
			requestId: z.string().optional(),
		}),
	}),
);
export type ErrorBody = z.output<typeof ErrorBody>;
