/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @typescript-eslint/no-require-imports -- a build script, never inside n8n; it loads the node files as n8n does */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { z } from 'zod/v4';

import { EventEnvelope, eventData } from '../../src/client/events';
import type { ResourceModule } from '../../nodes/shared/resources';
import type { TriggerImplementation } from '../../nodes/shared/trigger';

/**
 * The output schemas n8n's editor asks for before a node has run (`GET /schemas/<node type>/<version>
 * [/<resource>/<operation>].json`): n8n serves `<node folder>/__schema__/v<x.y.z>[/<resource>/<operation>].json`
 * (packages/cli load-nodes-and-credentials.ts `resolveSchema`; n8n-core output-schema-resolver.ts in 2.x), and
 * `n8n-node build` copies `**\/__schema__/**\/*.json` into dist/. Each is made from zod, the one source: an
 * operation's `output`; for a trigger, the event envelope around the payloads of the events it offers.
 */

export const ROOT = path.join(__dirname, '..', '..');

/** A JSON Schema, as plain data. */
type JsonSchema = Record<string, unknown>;

/** The node files package.json registers, as TypeScript sources. */
function nodeSources(): string[] {
	const packageJson = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
		n8n: { nodes: string[] };
	};
	return packageJson.n8n.nodes.map((file) => file.replace(/^dist\//, '').replace(/\.js$/, '.ts'));
}

/** `1` → `v1.0.0`, as n8n names the folder of a node version. */
function versionFolder(version: number): string {
	return `v${String(version).split('.').concat(['0', '0']).slice(0, 3).join('.')}`;
}

/**
 * A trigger outputs the event (id, type, createdAt, data), what it lifts from the event to the top level
 * (its `highlights`) and what its `attach` adds (a message's file: why it is not attached, the binary field of
 * each gathered message's); `data` holds what any of its events carries.
 */
function triggerOutput(
	description: INodeTypeDescription,
	trigger: TriggerImplementation | undefined,
): z.ZodType {
	const offered = description.properties.find((property) => property.name === 'events');
	const events = (offered?.options ?? [])
		.map((option) => ('value' in option ? String(option.value) : ''))
		.filter((event): event is keyof typeof eventData => event in eventData && event !== '*');
	// A trigger without an Events list listens to automation events, which people name themselves.
	const attached = trigger?.attachedOutput;
	const payloads = (events.length > 0 ? events : (['automation.*'] as const)).map(
		(event) => attached?.data[event] ?? eventData[event],
	);
	const [first, ...rest] = [...new Set(payloads)];
	return EventEnvelope.extend({
		...trigger?.highlightsOutput?.shape,
		...attached?.fields.shape,
		data: rest.length > 0 ? z.union([first, ...rest]) : first,
	});
}

/**
 * zod → the JSON Schema n8n's built-in nodes ship: `type`, `properties`, `items`, with descriptions and enums.
 * The editor maps fields from it, so a union becomes one shape holding every variant's fields, and null
 * (optional, nullable) goes: every field may be absent from an item anyway.
 */
export function n8nSchema(schema: z.ZodType): JsonSchema {
	const json = z.toJSONSchema(schema, {
		target: 'draft-7',
		io: 'output',
		unrepresentable: 'any',
	}) as JsonSchema;
	return simplify(json);
}

function simplify(json: JsonSchema): JsonSchema {
	const variants = (json.anyOf ?? json.oneOf ?? json.allOf) as JsonSchema[] | undefined;
	if (variants) {
		const { type, ...rest } = variants
			.map(simplify)
			.filter((variant) => variant.type !== 'null')
			.reduce<JsonSchema>(merge, {});
		// A description given to the whole (`.nullable().describe(…)`) stays.
		const description =
			typeof json.description === 'string' ? { description: json.description } : {};
		return { ...(type === undefined ? {} : { type }), ...description, ...rest };
	}
	const result: JsonSchema = {};
	const type = Array.isArray(json.type) ? json.type.find((t) => t !== 'null') : json.type;
	if (type !== undefined) result.type = type === 'integer' ? 'number' : type;
	else if (json.const !== undefined) result.type = typeof json.const;
	if (typeof json.description === 'string') result.description = json.description;
	if (Array.isArray(json.enum)) result.enum = json.enum.filter((value) => value !== null);
	if (json.properties) {
		result.properties = Object.fromEntries(
			Object.entries(json.properties as Record<string, JsonSchema>).map(([name, property]) => [
				name,
				simplify(property),
			]),
		);
	}
	if (json.items) result.items = simplify(json.items as JsonSchema);
	if (result.type === 'object' && !result.properties) result.properties = {};
	return result;
}

/** Two shapes as one: the fields of both; a field that differs between them keeps what they share. */
function merge(a: JsonSchema, b: JsonSchema): JsonSchema {
	if (Object.keys(a).length === 0) return b;
	if (a.type !== b.type) return {};
	const result: JsonSchema = { type: a.type };
	// A field of several shapes is described only by what they all say: a group's "Group id, ending in @g.us"
	// must not describe the id of a message.
	if (a.description !== undefined && a.description === b.description)
		result.description = a.description;
	if (Array.isArray(a.enum) && Array.isArray(b.enum))
		result.enum = [...new Set([...a.enum, ...b.enum])];
	if (a.properties || b.properties) {
		const properties: Record<string, JsonSchema> = {
			...(a.properties as Record<string, JsonSchema>),
		};
		for (const [name, property] of Object.entries(
			(b.properties ?? {}) as Record<string, JsonSchema>,
		)) {
			properties[name] = properties[name] ? merge(properties[name], property) : property;
		}
		result.properties = properties;
	}
	if (a.items && b.items) result.items = merge(a.items as JsonSchema, b.items as JsonSchema);
	else if (a.items ?? b.items) result.items = a.items ?? b.items;
	return result;
}

function render(schema: JsonSchema): string {
	return `${JSON.stringify(schema, null, '\t')}\n`;
}

/** Every output schema file of the package: its path from the repository root → its text. */
export function outputSchemaFiles(): Map<string, string> {
	const files = new Map<string, string>();
	for (const source of nodeSources()) {
		const folder = path.dirname(source);
		const className = path.basename(source, '.node.ts');
		const nodeModule = require(path.join(ROOT, source)) as Record<string, unknown>;
		const { description } = new (nodeModule[className] as new () => INodeType)();
		const versions = ([] as number[]).concat(description.version);
		for (const version of versions) {
			const base = path.join(folder, '__schema__', versionFolder(version));
			if (description.group.includes('trigger')) {
				const { trigger } = nodeModule as { trigger?: TriggerImplementation };
				files.set(`${base}.json`, render(n8nSchema(triggerOutput(description, trigger))));
				continue;
			}
			const { resources } = require(path.join(ROOT, folder, 'actions')) as {
				resources: Array<ResourceModule<unknown>>;
			};
			for (const resource of resources) {
				for (const [name, operation] of Object.entries(resource.operations)) {
					files.set(
						path.join(base, resource.value, `${name}.json`),
						render(n8nSchema(operation.output)),
					);
				}
			}
		}
	}
	return files;
}
