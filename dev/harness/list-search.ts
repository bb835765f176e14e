import { ExecutionLifecycleHooks, LoadOptionsContext } from 'n8n-core';
import { Workflow, type INodeListSearchResult, type IWorkflowBase } from 'n8n-workflow';

import { HarnessCredentialsHelper, type CredentialValues } from './credentials';
import { executionAdditionalData } from './execution';
import { HarnessNodeTypes } from './node-types';
import { loadPackage, type PackageSource } from './package';
import { itemsIntoNode, type NodeUnderTest } from './workflow';

/**
 * Calls one of a node's `methods.listSearch` the way the editor does: in n8n-core's `LoadOptionsContext`, with
 * the node's current parameters and its credentials.
 */
export async function runListSearch(
	node: NodeUnderTest & { method: string; filter?: string; paginationToken?: string },
	options: { credentials?: CredentialValues; from?: PackageSource } = {},
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
