import { ExecuteContext, ExecutionLifecycleHooks, RoutingNode } from 'n8n-core';
import {
	createRunExecutionData,
	NodeConnectionTypes,
	Workflow,
	type ICredentialDataDecryptedObject,
	type INode,
	type INodeType,
	type IWorkflowBase,
} from 'n8n-workflow';

import { HarnessCredentialsHelper, withDefaults } from './credentials';
import { executionAdditionalData } from './execution';
import { HarnessNodeTypes } from './node-types';
import { loadPackage, type PackageSource } from './package';

/** What n8n's credential dialog shows after "Save". */
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
	options: { from?: PackageSource } = {},
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
