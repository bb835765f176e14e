import type { ExecutionLifecycleHooks } from 'n8n-core';
import type { ICredentialsHelper, IWorkflowExecuteAdditionalData } from 'n8n-workflow';

/** What `WorkflowExecute` and the node contexts read from "additional data"; the rest is not used here. */
export function executionAdditionalData(
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
