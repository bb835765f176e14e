import fc from 'fast-check';

/**
 * Values for a JSON Schema (2020-12, as the OpenAPI document writes them), for the property-based fuzz: valid
 * values built from the schema (`valid`), and wrong ones (`mutated`). Small on purpose: lists and texts are kept
 * short, but the bounds of a text are tried too (emoji up to the limit, as the channel counts characters).
 *
 * Every URL (`format: uri`) is one on the fuzz's own loopback sink: no made-up host is ever looked up.
 */

export type Schema = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface SchemaContext {
	/** The document, for `$ref`. */
	document: Schema;
	/** A loopback URL of the test's sink, for every `format: uri`. */
	loopbackUrl: fc.Arbitrary<string>;
	/** Values a property of this name takes instead of generated ones (ids that exist, valid MIME types). */
	known?: (name: string) => fc.Arbitrary<unknown> | undefined;
}

const MAX_LIST = 3;
const MAX_TEXT = 24;

export function resolve(document: Schema, schema: Schema): Schema {
	let current = schema;
	while (current && typeof current.$ref === 'string') {
		const path = current.$ref.replace(/^#\//, '').split('/');
		const rest = { ...current };
		delete rest.$ref;
		current = { ...path.reduce((node: Schema, key: string) => node[key], document), ...rest };
	}
	return current;
}

/** `allOf` and `then` folded into one schema: properties and `required` merged (enough for this document). */
function flatten(document: Schema, schema: Schema): Schema {
	let result = resolve(document, schema);
	const parts = [...(result.allOf ?? []), ...(result.then ? [result.then] : [])];
	if (parts.length === 0) return result;
	result = { ...result };
	for (const keyword of ['allOf', 'if', 'then']) delete result[keyword];
	for (const part of parts.map((item: Schema) => flatten(document, item))) {
		result = {
			...part,
			...result,
			properties: { ...part.properties, ...result.properties },
			required: [...new Set([...(result.required ?? []), ...(part.required ?? [])])],
			...(part.pattern && result.pattern ? { patterns: [result.pattern, part.pattern] } : {}),
		};
	}
	return result;
}

/** A text within the schema's bounds, now and then exactly at them in emoji (two UTF-16 units each). */
function text(schema: Schema): fc.Arbitrary<string> {
	const min = schema.minLength ?? 0;
	const max = schema.maxLength ?? Math.max(min, MAX_TEXT);
	const plain = fc.string({
		unit: 'binary',
		minLength: min,
		maxLength: Math.min(max, min + MAX_TEXT),
	});
	const bounds = [fc.constant('😀'.repeat(Math.max(min, 1)))];
	if (max <= 5000) bounds.push(fc.constant('😀'.repeat(max)));
	// No text that looks like a URL where a URL is not expected: nothing a fuzzer writes is a host to contact.
	return fc
		.oneof({ arbitrary: plain, weight: 4 }, ...bounds)
		.filter((value) => !value.includes('://') && Array.from(value).length <= max);
}

function stringOf(schema: Schema, context: SchemaContext): fc.Arbitrary<unknown> {
	if (schema.format === 'uri') return context.loopbackUrl;
	if (schema.format === 'date-time')
		return fc
			.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
			.map((date) => date.toISOString());
	// Before the pattern: fast-check cannot build strings from the email pattern's lookaheads.
	if (schema.format === 'email')
		return fc
			.emailAddress()
			.filter((value) => !schema.pattern || new RegExp(schema.pattern).test(value));
	const patterns: string[] = schema.patterns ?? (schema.pattern ? [schema.pattern] : []);
	if (patterns.length > 0) {
		const [first, ...others] = patterns.map((pattern) => new RegExp(pattern, 'u'));
		const max = schema.maxLength ?? Infinity;
		return fc
			.stringMatching(first)
			.filter(
				(value) =>
					Array.from(value).length >= (schema.minLength ?? 0) &&
					Array.from(value).length <= max &&
					others.every((regex) => regex.test(value)),
			);
	}
	return text(schema);
}

function objectOf(schema: Schema, context: SchemaContext, depth: number): fc.Arbitrary<unknown> {
	const properties: Record<string, Schema> = schema.properties ?? {};
	const names = Object.keys(properties);
	if (names.length === 0) {
		if (schema.additionalProperties === false) return fc.constant({});
		return fc.dictionary(
			fc.string({ minLength: 1, maxLength: 8 }),
			depth > 3 ? fc.integer() : anyJson(),
			{ maxKeys: MAX_LIST },
		);
	}
	const shape: Record<string, fc.Arbitrary<unknown>> = {};
	for (const name of names)
		shape[name] = context.known?.(name) ?? valid(properties[name], context, depth + 1);
	return fc.record(shape, { requiredKeys: schema.required ?? [] });
}

/** A JSON value of a free-form field: shallow, and with no text that looks like a URL. */
export function anyJson(): fc.Arbitrary<unknown> {
	return fc.jsonValue({ maxDepth: 3 }).filter((value) => !JSON.stringify(value).includes('://'));
}

/** A value the schema accepts (as far as JSON Schema can say what the service takes). */
export function valid(
	schema: Schema | boolean,
	context: SchemaContext,
	depth = 0,
): fc.Arbitrary<unknown> {
	if (schema === true || schema === undefined) return anyJson();
	if (schema === false) return fc.constant(undefined);
	const flat = flatten(context.document, schema);
	if ('const' in flat) return fc.constant(flat.const);
	if (flat.enum) return fc.constantFrom(...flat.enum);
	const choices = flat.anyOf ?? flat.oneOf;
	if (choices)
		return fc.oneof(...choices.map((choice: Schema) => valid(choice, context, depth + 1)));
	if (Array.isArray(flat.type))
		return fc.oneof(...flat.type.map((type: string) => valid({ ...flat, type }, context, depth)));
	switch (flat.type) {
		case 'null':
			return fc.constant(null);
		case 'boolean':
			return fc.boolean();
		case 'integer':
			return fc.integer({ min: flat.minimum ?? -1000, max: flat.maximum ?? 100_000 });
		case 'number':
			return fc.double({
				min: flat.minimum ?? -1e6,
				max: flat.maximum ?? 1e6,
				noNaN: true,
				noDefaultInfinity: true,
			});
		case 'string':
			return stringOf(flat, context);
		case 'array': {
			const min = flat.minItems ?? 0;
			return fc.array(valid(flat.items ?? true, context, depth + 1), {
				minLength: min,
				maxLength: Math.max(min, Math.min(flat.maxItems ?? MAX_LIST, MAX_LIST)),
			});
		}
		default:
			return flat.properties || flat.type === 'object' ? objectOf(flat, context, depth) : anyJson();
	}
}

/** A value of the wrong kind for almost any field; its texts never look like URLs. */
export const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
	fc.integer(),
	fc.boolean(),
	fc.constant(null),
	fc.constant(''),
	fc.string({ maxLength: 300 }).filter((value) => !value.includes('://')),
	fc.array(fc.integer(), { maxLength: 3 }),
	fc.constant({ nested: { deeper: [1, 'two'] } }),
);

/** A valid object with one thing wrong: a required field left out, a field of the wrong kind, or one too many. */
export function mutated(valueArb: fc.Arbitrary<unknown>, schema: Schema, context: SchemaContext) {
	const flat = flatten(context.document, schema);
	const names = Object.keys(flat.properties ?? {});
	return fc
		.tuple(valueArb, fc.nat(), wrongValue, fc.constantFrom('drop', 'retype', 'extra', 'whole'))
		.map(([value, index, wrong, how]) => {
			if (how === 'whole' || !value || typeof value !== 'object' || names.length === 0)
				return wrong;
			const copy = { ...(value as Record<string, unknown>) };
			const name = names[index % names.length];
			if (how === 'drop')
				delete copy[(flat.required ?? names)[index % (flat.required ?? names).length]];
			else if (how === 'retype') copy[name] = wrong;
			else copy[`unknown_${index % 7}`] = wrong;
			return copy;
		});
}
