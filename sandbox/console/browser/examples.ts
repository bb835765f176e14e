import { KEY_KINDS, KEY_PREFIXES, type KeyKind } from '../../store/key-kinds';
import { resolve, type OpenApiDocument, type OperationObject, type SchemaObject } from './openapi';

/**
 * Example values the contract accepts, built from the OpenAPI schemas (required fields only).
 */

const NAMED_STRINGS: Record<string, string> = {
	to: '+14155550123',
	from: '+14155550123',
	phoneNumber: '+14155550123',
	phoneNumbers: '+14155550123',
	participants: '+14155550123',
	text: 'Hello from the Multichannel API',
	subject: 'Support team',
	question: 'Which day works for you?',
	options: 'Option',
	title: 'Spring sale',
	emoji: '👍',
	name: 'Example',
	description: 'Created from the API console',
	caption: 'Photo',
	fileName: 'photo.jpg',
	mimeType: 'image/jpeg',
	secret: 'whsec_sandbox_example_secret_0123',
	messageId: 'msg_0123456789abcdef',
	quotedMessageId: 'msg_0123456789abcdef',
	code: 'spring-sale',
	tags: 'example',
	organization: 'Example Inc.',
	address: '1 Example Street',
	events: 'automation.order.created',
	instanceIds: 'ins_0123456789abcdef',
	linkIds: 'lnk_0123456789abcdef',
};

const FALLBACK_STRINGS = [
	'example',
	'order.created',
	'automation.order.created',
	'+14155550123',
	'spring-sale',
	'120363000000000000@g.us',
	'ada@example.com',
	'https://example.com',
];

function exampleString(schema: SchemaObject, name: string, index: number): string {
	if (schema.format === 'uri' || schema.format === 'url') {
		return `https://example.com/${name === 'url' ? 'landing' : 'file.jpg'}`;
	}
	if (schema.format === 'email') return 'ada@example.com';
	if (schema.format === 'date-time') return '2030-01-01T00:00:00Z';
	const candidates: string[] = [];
	if (NAMED_STRINGS[name]) candidates.push(NAMED_STRINGS[name]);
	if (name === 'name' && schema.pattern) candidates.push('order.created');
	candidates.push(...FALLBACK_STRINGS);
	let pattern: RegExp | null = null;
	try {
		pattern = schema.pattern ? new RegExp(schema.pattern, 'u') : null;
	} catch {
		pattern = null;
	}
	for (const candidate of candidates) {
		let value = candidate;
		if (index > 0 && !schema.pattern) value = `${value} ${index + 1}`;
		if (pattern && !pattern.test(value)) continue;
		if (schema.maxLength !== undefined && value.length > schema.maxLength) {
			value = value.slice(0, schema.maxLength);
		}
		while (schema.minLength !== undefined && value.length < schema.minLength) value += 'x';
		return value;
	}
	return 'example';
}

/** A value `schema` accepts: its const, first example, first enum value or default, else one built from its type. */
export function example(
	document: OpenApiDocument,
	input: SchemaObject,
	name: string,
	index: number,
	depth: number,
): unknown {
	const schema = resolve(document, input);
	if (depth > 8) return null;
	if (schema.const !== undefined) return schema.const;
	if (schema.examples?.length) return schema.examples[0];
	if (schema.enum) return schema.enum[0];
	if (schema.default !== undefined) return schema.default;
	const options = schema.anyOf ?? schema.oneOf;
	if (options) {
		const choice =
			options
				.map((option) => resolve(document, option))
				.filter((option) => option.type !== 'null')[0] ?? {};
		return example(document, choice, name, index, depth + 1);
	}
	if (schema.allOf) {
		const merged: SchemaObject = { type: 'object', properties: {}, required: [] };
		for (const part of schema.allOf.map((item) => resolve(document, item))) {
			Object.assign(merged.properties as object, part.properties ?? {});
			merged.required = [...(merged.required ?? []), ...(part.required ?? [])];
		}
		return example(document, merged, name, index, depth + 1);
	}
	const type = Array.isArray(schema.type)
		? schema.type.filter((candidate) => candidate !== 'null')[0]
		: schema.type;
	if (type === 'object' || schema.properties) {
		const result: Record<string, unknown> = {};
		const properties = schema.properties ?? {};
		const required = schema.required ?? [];
		// Required fields only; an all-optional body (an update) gets its first field.
		const names = required.length ? required : Object.keys(properties).slice(0, 1);
		for (const field of names) {
			if (properties[field])
				result[field] = example(document, properties[field], field, 0, depth + 1);
		}
		return result;
	}
	if (type === 'array') {
		const count = Math.max(schema.minItems ?? 1, 1);
		return Array.from({ length: count }, (_, item) =>
			example(document, schema.items ?? {}, name, item, depth + 1),
		);
	}
	if (type === 'integer' || type === 'number') {
		if (name === 'latitude') return 52.52;
		if (name === 'longitude') return 13.405;
		if (schema.minimum !== undefined) return schema.minimum;
		if (schema.exclusiveMinimum !== undefined) return schema.exclusiveMinimum + 1;
		return 1;
	}
	if (type === 'boolean') return false;
	return exampleString(schema, name, index);
}

export interface ExampleBody {
	type: 'json' | 'multipart';
	value: Record<string, unknown>;
}

/** The example request body of an operation, JSON or multipart; null when it takes none. */
export function operationBody(
	document: OpenApiDocument,
	operation: OperationObject,
): ExampleBody | null {
	const content = operation.requestBody?.content;
	if (!content) return null;
	if (content['application/json']) {
		const value = example(document, content['application/json'].schema ?? {}, '', 0, 0);
		return { type: 'json', value: value as Record<string, unknown> };
	}
	if (content['multipart/form-data']) {
		const value = example(document, content['multipart/form-data'].schema ?? {}, '', 0, 0);
		return { type: 'multipart', value: value as Record<string, unknown> };
	}
	return null;
}

/** The kind of a key, from its prefix. */
export function keyKind(key: string): KeyKind | null {
	return KEY_KINDS.find((kind) => key.startsWith(KEY_PREFIXES[kind])) ?? null;
}
