/**
 * The node types a harness workflow runs: the package's own, and stand-ins for n8n-nodes-base (a manual trigger
 * and a node emitting fixed items, what a Code node would do).
 */
import {
	NodeConnectionTypes,
	NodeHelpers,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypes,
	type IVersionedNodeType,
} from 'n8n-workflow';

import type { ConnectionOptions } from '../../nodes/shared/connections';
import type { ClientOptions } from '../../src/client';
import type { LoadedPackage } from './package';

export const MANUAL_TRIGGER_TYPE = 'harness.manualTrigger';
export const ITEMS_TYPE = 'harness.items';

export class ManualTrigger implements INodeType {
	description = {
		displayName: 'Manual Trigger',
		name: 'manualTrigger',
		group: ['trigger'],
		version: 1,
		description: 'Starts the workflow with one empty item',
		defaults: { name: 'Manual Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	} as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}

export class Items implements INodeType {
	description = {
		displayName: 'Items',
		name: 'items',
		group: ['transform'],
		version: 1,
		description: 'Emits the JSON items of its parameter, like a Code node returning them',
		defaults: { name: 'Items' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[]' }],
	} as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const raw = this.getNodeParameter('items', 0) as string | IDataObject[];
		const items = (typeof raw === 'string' ? JSON.parse(raw) : raw) as IDataObject[];
		return [items.map((json) => ({ json, pairedItem: { item: 0 } }))];
	}
}

/**
 * Client options of every node run that gives none of its own (`clientOptions`): empty, so the client's
 * defaults apply. A test file may set shorter waits, more retries or a retry recorder here for all its runs,
 * and empty it again after.
 */
export const connectionDefaults: Partial<ClientOptions> = {};

/**
 * The package's node types, each built again with client options when some are given: an action node takes
 * them in its constructor (n8n builds it without), as `new Multichannel(options)`. The description the loader
 * completed (codex, icons) is kept.
 */
export function withClientOptions(
	types: LoadedPackage['nodeTypes'],
	options: ConnectionOptions,
): LoadedPackage['nodeTypes'] {
	if (Object.keys(options).length === 0) return types;
	return Object.fromEntries(
		Object.entries(types).map(([name, type]) => {
			const NodeClass = type.constructor as new (options: ConnectionOptions) => INodeType;
			return [name, Object.assign(new NodeClass(options), { description: type.description })];
		}),
	);
}

export class HarnessNodeTypes implements INodeTypes {
	constructor(private readonly types: Record<string, INodeType | IVersionedNodeType>) {}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		const type = this.types[nodeType];
		if (!type) throw new Error(`The harness knows no node type "${nodeType}"`);
		return type;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
	}

	getKnownTypes(): IDataObject {
		return {};
	}
}
