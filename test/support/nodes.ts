/**
 * What the Multichannel resource tests share: a sandbox on loopback with a seeded workspace, instances taken
 * through create → connect → scan, a builder for the node under test, and a node emitting binary items.
 */
import {
	NodeConnectionTypes,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
} from 'n8n-workflow';

import type { Sandbox, SandboxOptions } from '../../sandbox/server';
import { clientsFor, raw, startTestSandbox, type SandboxKeys } from './sandbox';
import {
	ITEMS_NAME,
	loadPackage,
	runNode,
	runWorkflow,
	TRIGGER_NAME,
	itemsIntoNode,
	type NodeUnderTest,
	type WorkflowResult,
} from '../../dev/harness';
import type { RunNodeOptions } from '../../dev/harness/workflow';

export const NODE_TYPE = 'n8n-nodes-multichannel.multichannel';
export const NODE_NAME = 'Multichannel';

/**
 * A variant n8n makes of the node for AI agents, registered in the harness: the same node, its type name ending
 * in `Tool` (the plain tool of an action node) or `HitlTool` (the human review tool of a node with sendAndWait).
 * Returns its type name and the node type.
 */
export async function registerToolVariant(suffix: 'Tool' | 'HitlTool' = 'Tool') {
	const type = `${NODE_TYPE}${suffix}`;
	const pkg = await loadPackage();
	const node = pkg.nodeTypes[NODE_TYPE] as INodeType;
	const NodeClass = node.constructor as new () => INodeType;
	pkg.nodeTypes[type] ??= Object.assign(new NodeClass(), {
		description: { ...node.description, name: `${node.description.name}${suffix}` },
	});
	return { type, nodeType: pkg.nodeTypes[type] as INodeType };
}

export const byId = (value: string) => ({ __rl: true, mode: 'id', value });
export const fromList = (value: string) => ({ __rl: true, mode: 'list', value });

export function multichannelNode(
	resource: string,
	parameters: IDataObject,
	extra: Partial<NodeUnderTest> = {},
): NodeUnderTest {
	return {
		type: NODE_TYPE,
		name: NODE_NAME,
		parameters: { resource, ...parameters },
		...extra,
	} as NodeUnderTest;
}

export interface TestService {
	sandbox: Sandbox;
	apiKey: string;
	credentials: { multichannelApi: { baseUrl: string; apiKey: string } };
	client: ReturnType<typeof clientsFor>['workspace'];
	/** An instance taken through create → connect (QR) → scan: it can send. */
	connectedInstance(
		name?: string,
		phoneNumber?: string,
	): Promise<{ id: string; phoneNumber: string }>;
	/** A contact writes in: a received message on the instance. */
	inbound(instanceId: string, from: string, text?: string): Promise<{ id: string }>;
	/** The recipient of an interactive message taps one of its buttons or rows (`id`). */
	tap(instanceId: string, messageId: string, id: string): Promise<{ id: string }>;
	close(): Promise<void>;
}

export async function startService(options: SandboxOptions = {}): Promise<TestService> {
	const sandbox = await startTestSandbox({ rateLimit: false, ...options });
	const keys = sandbox.keys as { workspace: string; shortLink: string; automation: string };
	const client = clientsFor(sandbox.baseUrl, keys).workspace;
	const sandboxCall = async (path: string, body: unknown) => {
		const response = await raw(sandbox.baseUrl, 'POST', path, { key: keys.workspace, body });
		if (response.status >= 300) throw new Error(`${path}: ${JSON.stringify(response.body)}`);
		return response.body as IDataObject;
	};
	let phone = 14155550100;
	return {
		sandbox,
		apiKey: keys.workspace,
		credentials: { multichannelApi: { baseUrl: sandbox.baseUrl, apiKey: keys.workspace } },
		client,
		async connectedInstance(name = 'Sales', phoneNumber = `+${++phone}`) {
			const instance = await client.instances.create({ body: { name } });
			await client.instances.connect({ instanceId: instance.id, body: { method: 'qr' } });
			await sandboxCall(`/sandbox/instances/${instance.id}/scan`, { phoneNumber });
			return { id: instance.id, phoneNumber };
		},
		async inbound(instanceId, from, text = 'Hello') {
			return (await sandboxCall(`/sandbox/instances/${instanceId}/inbound`, {
				from,
				text,
			})) as { id: string };
		},
		async tap(instanceId, messageId, id) {
			return (await sandboxCall(`/sandbox/instances/${instanceId}/messages/${messageId}/tap`, {
				id,
			})) as { id: string };
		},
		close: async () => await sandbox.close(),
	};
}

export interface ResourceSuite {
	/** The sandbox of this test file, started before its tests and closed after them. */
	service: TestService;
	/** The connected instance the node sends from (when `instance` was given). */
	instance: { id: string; phoneNumber: string };
	/** The node on this resource (and that instance), with these parameters. */
	node(parameters: IDataObject, extra?: Partial<NodeUnderTest>): NodeUnderTest;
	/** Runs the node with the workspace credential; one empty item unless `items` are given. */
	run(
		parameters: IDataObject,
		items?: IDataObject[],
		extra?: Partial<NodeUnderTest>,
	): Promise<WorkflowResult & { nodeName: string }>;
}

/** `service`'s workspace credential with this Default Country (undefined: one saved before there was one). */
export const credentialsWithCountry = (service: TestService, defaultCountry?: string) => ({
	multichannelApi: {
		...service.credentials.multichannelApi,
		...(defaultCountry === undefined ? {} : { defaultCountry }),
	},
});

/**
 * One resource of the Multichannel node under test, for a whole test file: registers the file's `beforeAll`
 * (a sandbox, and a connected instance named `options.instance` that the node's Instance field points at) and
 * `afterAll` (closes it). `service` and `instance` are set once `beforeAll` has run.
 */
export function useResource(resource: string, options: { instance?: string } = {}): ResourceSuite {
	const suite = {
		node: (parameters: IDataObject, extra: Partial<NodeUnderTest> = {}) =>
			multichannelNode(
				resource,
				options.instance ? { instanceId: byId(suite.instance.id), ...parameters } : parameters,
				extra,
			),
		run: async (parameters: IDataObject, items?: IDataObject[], extra = {}) =>
			await runNode(suite.node(parameters, extra), {
				credentials: suite.service.credentials,
				items,
			}),
	} as ResourceSuite;
	beforeAll(async () => {
		suite.service = await startService();
		if (options.instance) suite.instance = await suite.service.connectedInstance(options.instance);
	});
	afterAll(async () => await suite.service?.close());
	return suite;
}

/**
 * The error that stopped a run, as n8n keeps it in the execution: a `NodeApiError` the node threw, or the
 * `NodeOperationError` (its class survives as `name`).
 */
export interface StoredError {
	name: string;
	message: string;
	description?: string;
	httpCode?: string;
	context: IDataObject;
	messages?: string[];
	errorResponse?: IDataObject;
}

export const failure = (result: WorkflowResult) => result.error as unknown as StoredError;

/** Nothing the run kept (outputs, errors, messages) contains any of the secrets. */
export function expectNoSecrets(result: WorkflowResult, secrets: string[]): void {
	const kept = JSON.stringify(result.run.data);
	for (const secret of secrets) expect(kept).not.toContain(secret);
}

/** The credentials of the Short Link and Automation nodes, and the key of the seeded workspace each takes. */
const KEY_OF_CREDENTIAL = {
	multichannelShortLinkApi: 'shortLink',
	multichannelAutomationApi: 'automation',
} as const;

export interface SandboxNodeSuite {
	sandbox: Sandbox;
	keys: SandboxKeys;
	/** Runs the node with the credential's key (or `apiKey`), and checks that no key leaks into the run. */
	run(node: NodeUnderTest, options?: RunNodeOptions & { apiKey?: string }): Promise<WorkflowResult>;
}

/**
 * A node with one credential of the seeded workspace, run against a test sandbox (rate limit off) for a whole
 * test file: registers the file's `beforeAll`/`afterAll`; `sandbox` and `keys` are set once `beforeAll` ran.
 */
export function useSandboxNode(credential: keyof typeof KEY_OF_CREDENTIAL): SandboxNodeSuite {
	const suite = {} as SandboxNodeSuite;
	suite.run = async (node, options = {}) => {
		const ownKey = suite.keys[KEY_OF_CREDENTIAL[credential]];
		const apiKey = options.apiKey ?? ownKey;
		const result = await runNode(node, {
			credentials: { [credential]: { baseUrl: suite.sandbox.baseUrl, apiKey } },
			...options,
		});
		expectNoSecrets(result, [apiKey, ownKey, suite.keys.workspace]);
		return result;
	};
	beforeAll(async () => {
		suite.sandbox = await startTestSandbox({ rateLimit: false });
		suite.keys = suite.sandbox.keys as SandboxKeys;
	});
	afterAll(async () => await suite.sandbox?.close());
	return suite;
}

// ---------------------------------------------------------------------------------------------------------
// Binary input: Manual Trigger → Files → Multichannel

const FILES_TYPE = 'harness.files';
const FILES_NAME = 'Files';

export interface TestFile {
	json?: IDataObject;
	data: Buffer;
	fileName: string;
	mimeType: string;
	/** The binary property; `data` by default. */
	property?: string;
}

/** Emits one item per file, with the file as binary data, as a "Read Files" or HTTP node would. */
class Files implements INodeType {
	description = {
		displayName: 'Files',
		name: 'files',
		group: ['transform'],
		version: 1,
		description: 'Emits binary items',
		defaults: { name: FILES_NAME },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Files', name: 'files', type: 'json', default: '[]' }],
	} as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const files = JSON.parse(this.getNodeParameter('files', 0) as string) as Array<{
			json?: IDataObject;
			base64: string;
			fileName: string;
			mimeType: string;
			property: string;
		}>;
		const items: INodeExecutionData[] = [];
		for (const file of files) {
			const binary = await this.helpers.prepareBinaryData(
				Buffer.from(file.base64, 'base64'),
				file.fileName,
				file.mimeType,
			);
			items.push({
				json: file.json ?? {},
				binary: { [file.property]: binary },
				pairedItem: { item: 0 },
			});
		}
		return [items];
	}
}

/** Runs "Manual Trigger → Files → node". */
export async function runWithFiles(
	node: NodeUnderTest,
	files: TestFile[],
	credentials: IDataObject,
): Promise<WorkflowResult> {
	const pkg = await loadPackage();
	pkg.nodeTypes[FILES_TYPE] ??= new Files();
	const workflow = itemsIntoNode(node, [], Object.keys(credentials));
	const filesNode = workflow.nodes.find((candidate) => candidate.name === ITEMS_NAME);
	if (!filesNode) throw new Error('The harness workflow has no items node');
	Object.assign(filesNode, {
		name: FILES_NAME,
		type: FILES_TYPE,
		parameters: {
			files: JSON.stringify(
				files.map((file) => ({
					json: file.json,
					base64: file.data.toString('base64'),
					fileName: file.fileName,
					mimeType: file.mimeType,
					property: file.property ?? 'data',
				})),
			),
		},
	});
	const main = (to: string) => ({
		main: [[{ node: to, type: NodeConnectionTypes.Main, index: 0 }]],
	});
	return await runWorkflow(
		{
			nodes: workflow.nodes,
			connections: { [TRIGGER_NAME]: main(FILES_NAME), [FILES_NAME]: main(workflow.nodeName) },
		},
		{ credentials: credentials as never },
	);
}
