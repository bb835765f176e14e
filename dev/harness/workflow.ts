/**
 * Runs real n8n workflows in-process, the way n8n tests its own nodes: the package (package.ts) wrapped as
 * `INodeTypes` (node-types.ts), executed by `WorkflowExecute.processRunExecutionData` with an `ICredentialsHelper`
 * that applies each credential's `authenticate` block (credentials.ts). HTTP goes through n8n-core's own request
 * helpers, so nock sees exactly what a real n8n would send.
 */
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import {
	createRunExecutionData,
	NodeConnectionTypes,
	Workflow,
	type ExecutionError,
	type IConnections,
	type IDataObject,
	type INode,
	type INodeCredentials,
	type INodeExecutionData,
	type INodeParameters,
	type IRun,
	type IWorkflowBase,
} from 'n8n-workflow';

import type { ConnectionOptions } from '../../nodes/shared/connections';
import { HarnessCredentialsHelper, type CredentialValues } from './credentials';
import { executionAdditionalData } from './execution';
import {
	connectionDefaults,
	HarnessNodeTypes,
	Items,
	ITEMS_TYPE,
	MANUAL_TRIGGER_TYPE,
	ManualTrigger,
	withClientOptions,
} from './node-types';
import { loadPackage, type PackageSource } from './package';
import { useUnhurriedRegexEngine } from './regex-engine';

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
	from?: PackageSource;
	/** Client options of the package's nodes in this run; `connectionDefaults` when not given. */
	clientOptions?: ConnectionOptions;
	/** The execution's id, as n8n gives one to a saved execution; none by default (as in a manual test run). */
	executionId?: string;
	/** The workflow's id; `harness-workflow` by default. */
	workflowId?: string;
}

/** Runs a whole workflow from its trigger, as the editor's "Execute workflow" does. */
export async function runWorkflow(
	definition: WorkflowDefinition,
	options: RunOptions = {},
): Promise<WorkflowResult> {
	useUnhurriedRegexEngine();
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
		id: options.workflowId ?? 'harness-workflow',
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
	if (options.executionId !== undefined) additionalData.executionId = options.executionId;
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
	/** The node's id in the workflow; `node-under-test` by default. */
	id?: string;
	/** The node's "Retry On Fail" settings. */
	retry?: Pick<INode, 'retryOnFail' | 'maxTries' | 'waitBetweenTries'>;
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
			id: node.id ?? 'node-under-test',
			name: nodeName,
			type: node.type,
			typeVersion: node.typeVersion ?? 1,
			position: [400, 0],
			parameters: node.parameters,
			credentials,
			...(node.onError ? { onError: node.onError } : {}),
			...node.retry,
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
