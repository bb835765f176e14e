import { z } from 'zod/v4';

import { contractRegistry } from '../client/schemas';

/** A JSON Schema or OpenAPI object, as plain data. */
export type JsonSchema = Record<string, unknown>;

/**
 * zod → JSON Schema for the OpenAPI document: every schema named in the contract's registry becomes one
 * entry of `components.schemas`, referenced by `$ref` wherever it is used.
 */
export class SchemaCollector {
	readonly components: Record<string, JsonSchema> = {};

	/** Converts a zod schema, moving every named sub-schema into `components.schemas`. */
	convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
		const json = z.toJSONSchema(schema, {
			target: 'draft-2020-12',
			io,
			metadata: contractRegistry,
			unrepresentable: 'any',
			// `.describe()` writes to zod's global registry, which `metadata` replaces: without this, every
			// description of the contract's fields and parameters was lost from the document.
			override: ({ zodSchema, jsonSchema }) => {
				const description = z.globalRegistry.get(zodSchema)?.description;
				if (description !== undefined && jsonSchema.description === undefined) {
					jsonSchema.description = description;
				}
			},
		}) as JsonSchema;
		const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
		delete json.$defs;
		delete json.$schema;
		for (const [id, def] of Object.entries(defs)) this.add(id, def);
		const rootId = contractRegistry.get(schema)?.id;
		if (rootId) {
			this.add(rootId, json);
			return { $ref: `#/components/schemas/${rootId}` };
		}
		return rewriteRefs(json) as JsonSchema;
	}

	private add(id: string, schema: JsonSchema) {
		const clean = rewriteRefs(schema) as JsonSchema;
		delete clean.id;
		const existing = this.components[id];
		if (existing && JSON.stringify(existing) !== JSON.stringify(clean)) {
			throw new Error(`Schema ${id} is used both as request and response and differs between them`);
		}
		this.components[id] = clean;
	}
}

function rewriteRefs(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(rewriteRefs);
	if (value && typeof value === 'object') {
		const result: Record<string, unknown> = {};
		for (const [key, child] of Object.entries(value)) {
			if (key === '$ref' && typeof child === 'string') {
				result[key] = child.replace(/^#\/\$defs\//, '#/components/schemas/');
			} else if (key !== '$schema') {
				result[key] = rewriteRefs(child);
			}
		}
		return result;
	}
	return value;
}
