import {
	NodeOperationError,
	type IDataObject,
	type IDisplayOptions,
	type IExecuteFunctions,
	type ILoadOptionsFunctions,
	type INode,
	type INodeExecutionData,
	type INodeListSearchResult,
	type INodeProperties,
} from 'n8n-workflow';

import type { z } from 'zod/v4';

import type { Scope } from '../../src/client';
import { defaultCountryField } from './phone';

/**
 * How an action node is laid out: one folder per resource, one file per operation. An operation file exports
 * its entry in the Operation dropdown (`option`), its fields (`description`), the scope it needs, its
 * `execute` and, when its items may run several at a time, `concurrent`; the resource's `index.ts` lists its
 * operation files with `defineResource`; the node's `actions/index.ts` lists its resources. Adding an
 * operation is one new file plus one entry in its resource; adding a resource is one new folder plus one
 * entry in `actions/index.ts`.
 */

export interface OperationContext<C> {
	client: C;
	/** The input item being processed: read parameters with it. */
	itemIndex: number;
	/**
	 * The country whose national phone numbers the item's number fields are read in (an ISO code): the node's
	 * Default Country where the operation offers it, else the credential's; undefined when neither is set.
	 */
	defaultCountry?: string;
	/** The item's Options collection, read once (empty for an operation without one): read options from it. */
	options: IDataObject;
}

/** One JSON object per output item; an array for operations that return many (Get Many). */
export type OperationResult = object | object[];

export interface OperationModule<C> {
	/** The entry in the resource's Operation dropdown. */
	option: { name: string; value: string; action: string; description: string };
	/** The operation's fields, without `displayOptions` for resource and operation: those are added. */
	description: INodeProperties[];
	/** The key scope the operation needs, named in "permission denied" errors. */
	scope: Scope;
	/**
	 * One output item, as it comes out by default (simplified where Simplify is on by default): the editor
	 * offers its fields before the node has run (`npm run openapi` writes the node's `__schema__` from it).
	 */
	output: z.ZodType;
	/** Field names of the client's input, as the user knows them, for validation errors. */
	fields?: Record<string, string>;
	/**
	 * Whether items may run several at a time: the operation then offers `concurrencyOption` in its Options
	 * collection (sends, whose items are independent). Otherwise items run one after the other.
	 */
	concurrent?: boolean;
	/**
	 * Whether the operation takes phone numbers or chats (`nodes/shared/phone.ts`): it then offers the node's
	 * Default Country, before its collections, in place of the credential's.
	 */
	readsNumbers?: boolean;
	/**
	 * Whether the operation takes every input item at once (Campaign → Create: each item a recipient of one
	 * campaign): `execute` runs once, for the first item, and its output is paired with every input item.
	 */
	wholeInput?: boolean;
	/** Whether `execute` answers an item with a file (`{ json, binary }`) rather than JSON alone. */
	outputsBinary?: boolean;
	/** Runs the operation for one input item. */
	execute(
		this: IExecuteFunctions,
		context: OperationContext<C>,
	): Promise<OperationResult | INodeExecutionData>;
}

export type ListSearchMethod = (
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
) => Promise<INodeListSearchResult>;

export interface ResourceSpec<C> {
	/** Shown in the Resource dropdown: "Model". */
	name: string;
	value: string;
	/** The resource in sentence text, for messages: "model". */
	noun: string;
	/** The operation files of the resource; each is known by its `option.value`. */
	operations: Array<OperationModule<C>>;
	defaultOperation: string;
	listSearch?: Record<string, ListSearchMethod>;
}

export interface ResourceModule<C> extends Omit<ResourceSpec<C>, 'operations'> {
	operations: Record<string, OperationModule<C>>;
	/** The Operation dropdown followed by every operation's fields, each shown for its operation only. */
	description: INodeProperties[];
}

/** Adds `show` conditions to every property, keeping the conditions it already has. */
export function showOnlyFor(
	show: NonNullable<IDisplayOptions['show']>,
	properties: INodeProperties[],
): INodeProperties[] {
	return properties.map((property) => ({
		...property,
		displayOptions: {
			...property.displayOptions,
			show: { ...property.displayOptions?.show, ...show },
		},
	}));
}

export function defineResource<C>(spec: ResourceSpec<C>): ResourceModule<C> {
	const { defaultOperation } = spec;
	const operationProperty: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [spec.value] } },
		options: spec.operations
			.map((operation) => operation.option)
			.sort((a, b) => a.name.localeCompare(b.name)),
		default: defaultOperation,
	};
	return {
		...spec,
		operations: Object.fromEntries(
			spec.operations.map((operation) => [operation.option.value, operation]),
		),
		description: [
			operationProperty,
			...spec.operations.flatMap((operation) =>
				showOnlyFor(
					{ resource: [spec.value], operation: [operation.option.value] },
					operation.readsNumbers
						? withDefaultCountry(operation.description)
						: operation.description,
				),
			),
		],
	};
}

/** The fields, with the Default Country before the first collection (Options, Filters, …) or last. */
function withDefaultCountry(properties: INodeProperties[]): INodeProperties[] {
	const at = properties.findIndex((property) => property.type === 'collection');
	const before = at === -1 ? properties.length : at;
	return [...properties.slice(0, before), defaultCountryField, ...properties.slice(before)];
}

/** The Resource dropdown, then every resource's operations and fields. */
export function nodeProperties<C>(resources: Array<ResourceModule<C>>): INodeProperties[] {
	const defaultResource = resources[0]?.value ?? '';
	return [
		{
			displayName: 'Resource',
			name: 'resource',
			type: 'options',
			noDataExpression: true,
			// In the order the node lists its resources, most used first: n8n's node creator lists the actions
			// of each resource in this order (Message actions before 27 contact, group and instance ones).
			options: resources.map((resource) => ({ name: resource.name, value: resource.value })),
			default: defaultResource,
		},
		...resources.flatMap((resource) => resource.description),
	];
}

/**
 * The node's subtitle on the canvas: the resource and operation as the dropdowns name them ("Message: Send
 * Text"), looked up in a table the expression carries; a value the table does not know is shown as it is.
 */
export function operationSubtitle<C>(resources: Array<ResourceModule<C>>): string {
	const names: Record<string, string> = {};
	for (const resource of resources) {
		for (const operation of Object.values(resource.operations)) {
			names[`${resource.value}:${operation.option.value}`] =
				`${resource.name}: ${operation.option.name}`;
		}
	}
	return `={{ (${JSON.stringify(names)})[$parameter["resource"] + ":" + $parameter["operation"]] ?? $parameter["operation"] + ": " + $parameter["resource"] }}`;
}

/** Every resource's list-search methods, for the node's `methods.listSearch`. */
export function listSearchMethods<C>(
	resources: Array<ResourceModule<C>>,
): Record<string, ListSearchMethod> {
	return Object.assign({}, ...resources.map((resource) => resource.listSearch ?? {}));
}

/** The Resource and Operation the node is set to: read once per run. */
export interface ChosenOperation {
	resource: string;
	operation: string;
}

/** The operation the node is set to; undefined when its resource has none of that name. */
export function operationOf<C>(
	resources: Array<ResourceModule<C>>,
	chosen: ChosenOperation,
): OperationModule<C> | undefined {
	return resources.find((candidate) => candidate.value === chosen.resource)?.operations[
		chosen.operation
	];
}

/** The resource and operation the node is set to. */
export function findOperation<C>(
	node: INode,
	resources: Array<ResourceModule<C>>,
	chosen: ChosenOperation,
	itemIndex: number,
): { resource: ResourceModule<C>; operation: OperationModule<C> } {
	const resource = resources.find((candidate) => candidate.value === chosen.resource);
	const operation = operationOf(resources, chosen);
	if (!resource || !operation) {
		throw new NodeOperationError(
			node,
			`The operation "${chosen.operation}" of resource "${chosen.resource}" is not supported`,
			{ itemIndex },
		);
	}
	return { resource, operation };
}
