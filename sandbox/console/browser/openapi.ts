import type { KeyKind } from '../../store/key-kinds';

/**
 * The parts of the OpenAPI document (`/api/v1/openapi.json`) the console reads, and `$ref` resolution.
 */

export interface SchemaObject {
	$ref?: string;
	type?: string | string[];
	format?: string;
	pattern?: string;
	minLength?: number;
	maxLength?: number;
	minimum?: number;
	exclusiveMinimum?: number;
	minItems?: number;
	const?: unknown;
	enum?: unknown[];
	/** Values the schema gives as examples (a body whose rules JSON Schema cannot say shows one that passes). */
	examples?: unknown[];
	default?: unknown;
	anyOf?: SchemaObject[];
	oneOf?: SchemaObject[];
	allOf?: SchemaObject[];
	properties?: Record<string, SchemaObject>;
	required?: string[];
	items?: SchemaObject;
	description?: string;
}

export interface ParameterObject {
	$ref?: string;
	name: string;
	in: 'path' | 'query' | 'header';
	required?: boolean;
	description?: string;
	schema?: SchemaObject;
}

export interface OperationObject {
	operationId: string;
	summary?: string;
	tags?: string[];
	security?: Array<Record<string, string[]>>;
	parameters?: ParameterObject[];
	requestBody?: { content?: Record<string, { schema?: SchemaObject }> };
	'x-scope'?: string;
}

export const METHODS = ['get', 'post', 'patch', 'put', 'delete'] as const;

export type PathItem = Partial<Record<(typeof METHODS)[number], OperationObject>> & {
	parameters?: ParameterObject[];
};

export interface OpenApiDocument {
	tags?: Array<{ name: string; description?: string }>;
	paths?: Record<string, PathItem>;
}

/** What the reader typed for a request: path and query parameters by name, and a JSON body (none: the example). */
export interface RequestValues {
	path: Record<string, string>;
	query: Record<string, string>;
	body?: string;
}

/** One endpoint as the reference shows it, with what the reader typed into its fields. */
export interface Endpoint {
	id: string;
	method: string;
	path: string;
	tag: string;
	/** The key kind its security scheme takes. */
	kind: KeyKind | null;
	operation: OperationObject;
	parameters: ParameterObject[];
	values: RequestValues;
	open: boolean;
}

/** Follows `$ref`s (`#/components/…`) within the document; `{}` when one leads nowhere. */
export function resolve<T extends { $ref?: string }>(
	document: OpenApiDocument,
	value: T | undefined,
): T {
	let current: unknown = value;
	for (let seen = 0; seen < 20; seen++) {
		const ref = (current as { $ref?: unknown } | undefined)?.$ref;
		if (typeof ref !== 'string') break;
		let target: unknown = document;
		for (const part of ref.replace(/^#\//, '').split('/')) {
			const name = part.replace(/~1/g, '/').replace(/~0/g, '~');
			target = target ? (target as Record<string, unknown>)[name] : undefined;
		}
		current = target;
	}
	return (current ?? {}) as T;
}
