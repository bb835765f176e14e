/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code runs in plain Node, never inside n8n */
/**
 * Runs real n8n workflows in-process, the way n8n tests its own nodes: the package is loaded by n8n-core's
 * `PackageDirectoryLoader` from the `n8n` section of package.json, wrapped as `INodeTypes`, and executed by
 * `WorkflowExecute.processRunExecutionData` with an `ICredentialsHelper` that applies each credential's
 * `authenticate` block. HTTP goes through n8n-core's own request helpers, so nock sees exactly what a real n8n
 * would send.
 *
 * By default the package is loaded from its TypeScript sources: every `dist/….js` path registered in
 * package.json is mapped to the `.ts` file the build compiles it from (and `dist/….json` to its source JSON),
 * which ts-jest compiles on require. No build is needed, and a registered path without a source fails loudly.
 * `{ from: 'dist' }` loads the built package instead (run `npm run build` first).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

import {
	ExecuteContext,
	ExecutionLifecycleHooks,
	LoadOptionsContext,
	PackageDirectoryLoader,
	RoutingNode,
	WorkflowExecute,
} from 'n8n-core';
import {
	createRunExecutionData,
	ICredentialsHelper,
	NodeConnectionTypes,
	NodeHelpers,
	Workflow,
	type ExecutionError,
	type ICredentialDataDecryptedObject,
	type ICredentials,
	type ICredentialType,
	type IConnections,
	type IDataObject,
	type IExecuteFunctions,
	type IHttpRequestOptions,
	type INode,
	type INodeCredentials,
	type INodeExecutionData,
	type INodeListSearchResult,
	type INodeParameters,
	type INodeProperties,
	type INodeType,
	type INodeTypes,
	type IRequestOptionsSimplified,
	type IRun,
	type IVersionedNodeType,
	type IWorkflowBase,
	type IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import type { ConnectionOptions } from '../../nodes/shared/client';
import type { ClientOptions } from '../../src/client';

export const PACKAGE_DIR = path.resolve(__dirname, '../..');

// n8n logs every node error it reports; the tests assert errors themselves. `N8N_LOG_LEVEL=debug` shows them.
process.env.N8N_LOG_LEVEL ??= 'silent';

/** Credential values by credential type name, as a user would enter them. */
export type CredentialValues = Record<string, ICredentialDataDecryptedObject>;

// ---------------------------------------------------------------------------------------------------------
// Loading the package

/**
 * n8n's own loader, with one change: registered `dist/` paths resolve to their sources. `resolvePath` is the
 * loader's single point for turning package paths into files (classes, codex files), so nothing else differs
 * from what n8n does with the built package.
 */
class SourcePackageLoader extends PackageDirectoryLoader {
	protected resolvePath(file: string): string {
		const match = /^dist\/(.+?)(\.js|\.json)$/.exec(file);
		if (!match) return super.resolvePath(file);
		const [, stem, extension] = match;
		const source = super.resolvePath(`${stem}${extension === '.js' ? '.ts' : extension}`);
		if (!existsSync(source)) {
			throw new Error(
				`package.json registers "${file}", but its source "${path.relative(this.directory, source)}" does not exist: the build would not emit it`,
			);
		}
		return source;
	}
}

export interface LoadedPackage {
	packageName: string;
	/** Node types by full type name, e.g. `n8n-nodes-multichannel.multichannel`. */
	nodeTypes: Record<string, INodeType | IVersionedNodeType>;
	credentialTypes: Record<string, ICredentialType>;
}

const loaded = new Map<string, Promise<LoadedPackage>>();

/** Loads the package once per test file (per module registry) and source. */
export async function loadPackage(
	options: { from?: 'sources' | 'dist' } = {},
): Promise<LoadedPackage> {
	const from = options.from ?? 'sources';
	let pending = loaded.get(from);
	if (!pending) {
		pending = (async () => {
			const loader =
				from === 'sources'
					? new SourcePackageLoader(PACKAGE_DIR)
					: new PackageDirectoryLoader(PACKAGE_DIR);
			await loader.loadAll();
			const nodeTypes: LoadedPackage['nodeTypes'] = {};
			for (const [name, { type }] of Object.entries(loader.nodeTypes)) {
				nodeTypes[`${loader.packageName}.${name}`] = type;
			}
			const credentialTypes: LoadedPackage['credentialTypes'] = {};
			for (const [name, { type }] of Object.entries(loader.credentialTypes)) {
				credentialTypes[name] = type;
			}
			return { packageName: loader.packageName, nodeTypes, credentialTypes };
		})();
		loaded.set(from, pending);
	}
	return await pending;
}

// ---------------------------------------------------------------------------------------------------------
// Stand-ins for n8n-nodes-base: a manual trigger and a node emitting fixed items (what a Code node would do)

export const MANUAL_TRIGGER_TYPE = 'harness.manualTrigger';
export const ITEMS_TYPE = 'harness.items';

class ManualTrigger implements INodeType {
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

class Items implements INodeType {
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
function withClientOptions(
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

class HarnessNodeTypes implements INodeTypes {
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

// ---------------------------------------------------------------------------------------------------------
// Credentials

/**
 * Holds decrypted credential values and applies a credential's `authenticate`: a function is called, a
 * `generic` block has each key and value resolved as an expression with `$credentials`, then set on the
 * request, as n8n's own credentials helper does.
 */
export class HarnessCredentialsHelper extends ICredentialsHelper {
	constructor(
		private readonly types: Record<string, ICredentialType>,
		private readonly values: CredentialValues,
	) {
		super();
	}

	private type(name: string): ICredentialType {
		const type = this.types[name];
		if (!type) throw new Error(`The package has no credential type "${name}"`);
		return type;
	}

	getParentTypes(name: string): string[] {
		return this.type(name).extends ?? [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = this.type(typeName);
		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions as IHttpRequestOptions);
		}
		if (authenticate?.type === 'generic') {
			if (!workflow || !node)
				throw new Error('A generic authenticate block needs the workflow and node');
			const resolve = (value: unknown) =>
				typeof value === 'string' && value.startsWith('=')
					? String(
							workflow.expression.getSimpleParameterValue(
								node,
								value,
								'internal',
								{ $credentials: credentials },
								undefined,
								'',
							) ?? '',
						)
					: value;
			const target = requestOptions as unknown as Record<string, Record<string, unknown>>;
			for (const [outerKey, entries] of Object.entries(authenticate.properties)) {
				if (entries === null || typeof entries !== 'object') {
					(target as Record<string, unknown>)[outerKey] = resolve(entries);
					continue;
				}
				target[outerKey] ??= {};
				for (const [key, value] of Object.entries(entries as Record<string, unknown>)) {
					target[outerKey][String(resolve(key))] = resolve(value);
				}
			}
		}
		return requestOptions as IHttpRequestOptions;
	}

	async preAuthentication(): Promise<undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<undefined> {
		return undefined;
	}

	async getCredentials(): Promise<ICredentials> {
		throw new Error('The harness only serves decrypted credential values (getDecrypted)');
	}

	/** The values given for the type, with the credential's defaults filled in, as n8n does. */
	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: unknown,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const values = this.values[type];
		if (!values) throw new Error(`No credential values given for "${type}"`);
		return withDefaults(this.type(type).properties, values);
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.type(type).properties;
	}
}

function withDefaults(
	properties: INodeProperties[],
	values: ICredentialDataDecryptedObject,
): ICredentialDataDecryptedObject {
	const result: ICredentialDataDecryptedObject = {};
	for (const property of properties) {
		if (property.default !== undefined && property.default !== null) {
			result[property.name] = property.default as ICredentialDataDecryptedObject[string];
		}
	}
	return { ...result, ...values };
}

// ---------------------------------------------------------------------------------------------------------
// Running workflows

export interface WorkflowDefinition {
	nodes: INode[];
	connections: IConnections;
}

export interface WorkflowResult {
	run: IRun;
	/** The error that stopped the run, if one did. */
	error?: ExecutionError;
	/** The items a node sent on one of its outputs (the first run of the node). */
	output(nodeName: string, outputIndex?: number): INodeExecutionData[];
	/** Just the JSON of those items. */
	json(nodeName: string, outputIndex?: number): IDataObject[];
	/** The error a node stopped with, if it did. */
	nodeError(nodeName: string): ExecutionError | undefined;
}

export interface RunOptions {
	credentials?: CredentialValues;
	from?: 'sources' | 'dist';
	/** Client options of the package's nodes in this run; `connectionDefaults` when not given. */
	clientOptions?: ConnectionOptions;
}

/** Runs a whole workflow from its trigger, as the editor's "Execute workflow" does. */
export async function runWorkflow(
	definition: WorkflowDefinition,
	options: RunOptions = {},
): Promise<WorkflowResult> {
	const pkg = await loadPackage({ from: options.from });
	const nodeTypes = new HarnessNodeTypes({
		...withClientOptions(pkg.nodeTypes, options.clientOptions ?? connectionDefaults),
		[MANUAL_TRIGGER_TYPE]: new ManualTrigger(),
		[ITEMS_TYPE]: new Items(),
	});
	const credentialsHelper = new HarnessCredentialsHelper(
		pkg.credentialTypes,
		options.credentials ?? {},
	);

	const workflowData: IWorkflowBase = {
		id: 'harness-workflow',
		name: 'Harness workflow',
		active: false,
		isArchived: false,
		nodes: definition.nodes,
		connections: definition.connections,
		settings: { executionOrder: 'v1' },
		createdAt: new Date(),
		updatedAt: new Date(),
		activeVersionId: null,
	} as IWorkflowBase;
	const workflow = new Workflow({
		id: workflowData.id,
		name: workflowData.name,
		nodes: definition.nodes,
		connections: definition.connections,
		active: false,
		nodeTypes,
		settings: workflowData.settings,
	});

	const startNode =
		definition.nodes.find((node) => node.type === MANUAL_TRIGGER_TYPE) ?? workflow.getStartNode();
	if (!startNode) throw new Error('The workflow has no node to start from');

	const additionalData = executionAdditionalData(
		credentialsHelper,
		new ExecutionLifecycleHooks('manual', 'harness-execution', workflowData),
	);
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [{ node: startNode, data: { main: [[{ json: {} }]] }, source: null }],
		},
	});
	const run = await new WorkflowExecute(
		additionalData,
		'manual',
		runExecutionData,
	).processRunExecutionData(workflow);

	const runData = run.data.resultData.runData;
	const firstRun = (nodeName: string) => {
		const task = runData[nodeName]?.[0];
		if (!task) throw new Error(`Node "${nodeName}" did not run`);
		return task;
	};
	const output = (nodeName: string, outputIndex = 0) => {
		const task = firstRun(nodeName);
		if (task.error) {
			throw new Error(`Node "${nodeName}" failed: ${task.error.message}`, { cause: task.error });
		}
		return task.data?.main?.[outputIndex] ?? [];
	};
	return {
		run,
		error: run.data.resultData.error,
		output,
		json: (nodeName, outputIndex) => output(nodeName, outputIndex).map((item) => item.json),
		nodeError: (nodeName) => firstRun(nodeName).error,
	};
}

/** What `WorkflowExecute` and the node contexts read from "additional data"; the rest is not used here. */
function executionAdditionalData(
	credentialsHelper: ICredentialsHelper,
	hooks: ExecutionLifecycleHooks,
): IWorkflowExecuteAdditionalData {
	const unsupported = (what: string) => async () => {
		throw new Error(`The harness does not support ${what}`);
	};
	return {
		credentialsHelper,
		hooks,
		executeWorkflow: unsupported('sub-workflows'),
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		startRunnerTask: unsupported('task runners (Code node)'),
		logAiEvent: () => {},
		currentNodeExecutionIndex: 0,
		variables: {},
		restApiUrl: 'http://localhost:5678/rest',
		instanceBaseUrl: 'http://localhost:5678/',
		formBaseUrl: 'http://localhost:5678/form',
		formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
		formTestBaseUrl: 'http://localhost:5678/form-test',
		webhookBaseUrl: 'http://localhost:5678/webhook',
		webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://localhost:5678/webhook-test',
		mcpBaseUrl: 'http://localhost:5678/mcp',
		mcpTestBaseUrl: 'http://localhost:5678/mcp-test',
		userId: 'harness-user',
	} as unknown as IWorkflowExecuteAdditionalData;
}

// ---------------------------------------------------------------------------------------------------------
// The usual shape: Manual Trigger → Items → the node under test

export interface NodeUnderTest {
	/** Full type name, e.g. `n8n-nodes-multichannel.multichannel`. */
	type: string;
	parameters: INodeParameters;
	/** Defaults to the type's display name. */
	name?: string;
	typeVersion?: number;
	/** Credential type names to attach; by default every type given in `credentials`. */
	credentialTypes?: string[];
	/** `continueRegularOutput` is what "On Error: Continue" (and the legacy continueOnFail) sets. */
	onError?: INode['onError'];
}

export interface RunNodeOptions extends RunOptions {
	/** The items the node receives; one empty item by default. */
	items?: IDataObject[];
}

export const TRIGGER_NAME = 'Manual Trigger';
export const ITEMS_NAME = 'Items';

/** Builds "Manual Trigger → Items → node", the workflow most node tests need. */
export function itemsIntoNode(
	node: NodeUnderTest,
	items: IDataObject[],
	credentialTypes: string[],
): WorkflowDefinition & { nodeName: string } {
	const nodeName = node.name ?? 'Node under test';
	const credentials: INodeCredentials = {};
	for (const type of node.credentialTypes ?? credentialTypes) {
		credentials[type] = { id: `${type}-id`, name: `${type} account` };
	}
	const nodes: INode[] = [
		{
			id: 'trigger',
			name: TRIGGER_NAME,
			type: MANUAL_TRIGGER_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		{
			id: 'items',
			name: ITEMS_NAME,
			type: ITEMS_TYPE,
			typeVersion: 1,
			position: [200, 0],
			parameters: { items: JSON.stringify(items) },
		},
		{
			id: 'node-under-test',
			name: nodeName,
			type: node.type,
			typeVersion: node.typeVersion ?? 1,
			position: [400, 0],
			parameters: node.parameters,
			credentials,
			...(node.onError ? { onError: node.onError } : {}),
		},
	];
	const main = (to: string) => ({
		main: [[{ node: to, type: NodeConnectionTypes.Main, index: 0 }]],
	});
	return {
		nodeName,
		nodes,
		connections: { [TRIGGER_NAME]: main(ITEMS_NAME), [ITEMS_NAME]: main(nodeName) },
	};
}

/** Runs "Manual Trigger → Items → node" and hands back the run, with the node's name. */
export async function runNode(
	node: NodeUnderTest,
	options: RunNodeOptions = {},
): Promise<WorkflowResult & { nodeName: string }> {
	const workflow = itemsIntoNode(
		node,
		options.items ?? [{}],
		Object.keys(options.credentials ?? {}),
	);
	const result = await runWorkflow(workflow, options);
	return { ...result, nodeName: workflow.nodeName };
}

// ---------------------------------------------------------------------------------------------------------
// The credential test ("Save" in the credential dialog)

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

/**
 * Sends a credential's `test` request the way n8n's credentials tester does (a declarative request run by
 * n8n-core's `RoutingNode`, authenticated by the credential) and reads the answer with the test's rules.
 */
export async function testCredential(
	type: string,
	values: ICredentialDataDecryptedObject,
	options: { from?: 'sources' | 'dist' } = {},
): Promise<CredentialTestResult> {
	const pkg = await loadPackage(options);
	const credentialType = pkg.credentialTypes[type];
	if (!credentialType?.test) throw new Error(`Credential "${type}" has no test request`);
	const { test } = credentialType;

	const testNodeType: INodeType = {
		description: {
			displayName: 'Credential test',
			name: 'credentialTest',
			group: ['transform'],
			version: 1,
			description: '',
			defaults: {},
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			credentials: [{ name: type, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					default: '',
					routing: { request: test.request },
				},
			],
		},
	};
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: 'harness.credentialTest',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [type]: { id: 'credential-under-test', name: 'Credential under test' } },
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: new HarnessNodeTypes({ 'harness.credentialTest': testNodeType }),
	});
	const credentialsHelper = new HarnessCredentialsHelper(pkg.credentialTypes, { [type]: values });
	const data = withDefaults(credentialType.properties, values);
	const additionalData = executionAdditionalData(
		credentialsHelper,
		new ExecutionLifecycleHooks('internal', 'credential-test', {} as IWorkflowBase),
	);
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		createRunExecutionData(),
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node, data: {}, source: null },
		[],
	);
	const routingNode = new RoutingNode(context, testNodeType, {
		id: 'credential-under-test',
		name: 'Credential under test',
		type,
		data,
	});

	try {
		await routingNode.runNode();
	} catch (error) {
		const cause = (
			error as {
				cause?: { response?: { status: number; statusText?: string }; code?: string };
			}
		).cause;
		if (cause?.response) {
			const { status, statusText } = cause.response;
			for (const rule of test.rules ?? []) {
				if (rule.type === 'responseCode' && rule.properties.value === status) {
					return { status: 'Error', message: rule.properties.message };
				}
			}
			return { status: 'Error', message: statusText || `Received HTTP status code: ${status}` };
		}
		// No answer at all: n8n's credentials tester shows the system's code alone (ECONNREFUSED…).
		if (cause?.code) return { status: 'Error', message: cause.code };
		return { status: 'Error', message: (error as Error).message };
	}
	return { status: 'OK', message: 'Connection successful!' };
}

// ---------------------------------------------------------------------------------------------------------
// List searches ("From list" in a resource locator)

/**
 * Calls one of a node's `methods.listSearch` the way the editor does: in n8n-core's `LoadOptionsContext`, with
 * the node's current parameters and its credentials.
 */
export async function searchList(
	node: NodeUnderTest & { method: string; filter?: string; paginationToken?: string },
	options: { credentials?: CredentialValues; from?: 'sources' | 'dist' } = {},
): Promise<INodeListSearchResult> {
	const pkg = await loadPackage({ from: options.from });
	const nodeTypes = new HarnessNodeTypes(pkg.nodeTypes);
	const nodeType = nodeTypes.getByNameAndVersion(node.type, node.typeVersion ?? 1);
	const method = nodeType.methods?.listSearch?.[node.method];
	if (!method) throw new Error(`${node.type} has no list search "${node.method}"`);

	const { nodes } = itemsIntoNode(node, [], Object.keys(options.credentials ?? {}));
	const nodeUnderTest = nodes[nodes.length - 1];
	const workflow = new Workflow({
		nodes: [nodeUnderTest],
		connections: {},
		active: false,
		nodeTypes,
	});
	const additionalData = executionAdditionalData(
		new HarnessCredentialsHelper(pkg.credentialTypes, options.credentials ?? {}),
		new ExecutionLifecycleHooks('internal', 'list-search', {} as IWorkflowBase),
	);
	additionalData.currentNodeParameters = workflow.getNode(nodeUnderTest.name)?.parameters;
	const context = new LoadOptionsContext(
		workflow,
		nodeUnderTest,
		additionalData,
		`parameters.${node.method}`,
	);
	return await method.call(context, node.filter, node.paginationToken);
}
