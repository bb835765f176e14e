/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code runs in plain Node, never inside n8n */
/**
 * Runs a trigger node's webhook lifecycle and its deliveries the way n8n does, with n8n-core's own contexts:
 *
 * - activation (`WebhookService.createWebhookIfNotExists` in n8n's cli): `checkExists` in a `HookContext`,
 *   then `create` when it answers false; deactivation: `delete`. The workflow's static data is kept in a
 *   stand-in for the database: read into a fresh `Workflow` for every call and saved back after it, as n8n
 *   saves it after activation and after each production webhook call.
 * - "Listen for test event" (`TestWebhooks` in n8n's cli): the same lifecycle on the test URL, with static data
 *   of its own that is never saved to the database.
 * - deliveries: `webhook()` in a `WebhookContext` holding the request and response, called by the stand-in
 *   for n8n's webhook endpoint (webhook-endpoint.ts).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

import { HookContext, WebhookContext } from 'n8n-core';
import {
	NodeHelpers,
	Workflow,
	type IDataObject,
	type INode,
	type INodeParameters,
	type INodeType,
	type IWebhookData,
	type IWebhookDescription,
	type IWorkflowExecuteAdditionalData,
	type WorkflowActivateMode,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { HarnessCredentialsHelper, type CredentialValues } from './credentials';
import { HarnessNodeTypes } from './node-types';
import { loadPackage } from './package';
import { useUnhurriedRegexEngine } from './regex-engine';
import type { N8nEndpoint } from './webhook-endpoint';

export type { Delivery } from './webhook-endpoint';
export { N8nEndpoint } from './webhook-endpoint';

export const TRIGGER_TYPES = {
	messaging: 'n8n-nodes-multichannel.multichannelTrigger',
	shortLink: 'n8n-nodes-multichannel.multichannelShortLinkTrigger',
	automation: 'n8n-nodes-multichannel.multichannelAutomationTrigger',
} as const;

export const CREDENTIAL_OF = {
	[TRIGGER_TYPES.messaging]: 'multichannelApi',
	[TRIGGER_TYPES.shortLink]: 'multichannelShortLinkApi',
	[TRIGGER_TYPES.automation]: 'multichannelAutomationApi',
} as const;

type TriggerType = (typeof TRIGGER_TYPES)[keyof typeof TRIGGER_TYPES];

/** Every message the nodes logged through n8n's logger (whatever the log level), to look for secrets. */
export const logLines: string[] = [];
let loggerPatched = false;

/** n8n's logger is one instance for every context: its methods are wrapped once to record the messages. */
function recordLogs(context: HookContext | WebhookContext) {
	if (loggerPatched) return;
	loggerPatched = true;
	const logger = context.logger as unknown as Record<string, (...args: unknown[]) => void>;
	for (const level of ['error', 'warn', 'info', 'debug']) {
		const original = logger[level].bind(logger);
		logger[level] = (message: unknown, ...rest: unknown[]) => {
			logLines.push(`${level}: ${String(message)} ${rest.length ? JSON.stringify(rest) : ''}`);
			original(message, ...rest);
		};
	}
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value ?? {})) as T;

export interface TriggerOptions {
	type: TriggerType;
	parameters: INodeParameters;
	credentials: CredentialValues;
	name?: string;
}

/** One workflow made of one trigger node, with its static data "in the database". */
export class TriggerUnderTest {
	readonly node: INode;
	/** The workflow's static data as the database holds it. */
	staticData: IDataObject = {};
	/** The static data of a running "listen for test event", kept by n8n in its test-webhook registration. */
	testStaticData: IDataObject | undefined;
	private readonly workflowId: string;
	/**
	 * Runs after a delivery's `webhook()` and before n8n saves the static data it read at the request's start:
	 * what another call (a republish's `create`) does in between.
	 */
	beforeDeliverySaves: (() => Promise<void>) | undefined;

	constructor(
		private endpoint: N8nEndpoint,
		private readonly options: TriggerOptions,
		same?: { node: INode; workflowId: string },
	) {
		this.workflowId = same?.workflowId ?? `wf-${randomUUID().slice(0, 8)}`;
		const credentialType = CREDENTIAL_OF[options.type];
		this.node = same?.node ?? {
			id: randomUUID(),
			name: options.name ?? 'Trigger',
			type: options.type,
			typeVersion: 1,
			position: [0, 0],
			parameters: options.parameters,
			credentials: { [credentialType]: { id: `${credentialType}-id`, name: 'Account' } },
			webhookId: randomUUID(),
		};
		endpoint.register(this);
	}

	/** n8n moved: its URLs are at `endpoint` now, and the old endpoint still reaches it. */
	moveTo(endpoint: N8nEndpoint): void {
		this.endpoint = endpoint;
		endpoint.register(this);
	}

	/**
	 * Another n8n process at `endpoint` (queue mode: main, a webhook process), or a copy of this n8n made from
	 * its user folder (`copy`): the same instance id, workflow and node; a process shares the database's static
	 * data, a copy starts with what it holds now.
	 */
	otherAt(endpoint: N8nEndpoint, kind: 'process' | 'copy'): TriggerUnderTest {
		const other = new TriggerUnderTest(endpoint, this.options, {
			node: this.node,
			workflowId: this.workflowId,
		});
		if (kind === 'copy') {
			other.staticData = clone(this.staticData);
		} else {
			Object.defineProperty(other, 'staticData', {
				get: () => this.staticData,
				set: (value: IDataObject) => (this.staticData = value),
			});
		}
		return other;
	}

	/** The URL n8n gives the node: `/webhook/<webhookId>/webhook`, or `/webhook-test/…` for test events. */
	webhookUrl(test = false): string {
		return `${this.endpoint.url}/${test ? 'webhook-test' : 'webhook'}/${this.node.webhookId}/webhook`;
	}

	/** The credentials' values, as n8n would decrypt them on each call: change them to move the service. */
	get credentials(): CredentialValues {
		return this.options.credentials;
	}

	/** The node's part of the static data. */
	nodeStaticData(test = false): IDataObject {
		const data = test ? this.testStaticData : this.staticData;
		return ((data ?? {})[`node:${this.node.name}`] ?? {}) as IDataObject;
	}

	private async workflow(staticData: IDataObject, onCredentialRead?: (type: string) => void) {
		useUnhurriedRegexEngine();
		const pkg = await loadPackage();
		const nodeTypes = new HarnessNodeTypes(pkg.nodeTypes);
		const workflow = new Workflow({
			id: this.workflowId,
			name: 'Trigger test workflow',
			nodes: [clone(this.node)],
			connections: {},
			active: true,
			nodeTypes,
			staticData: clone(staticData),
			settings: { executionOrder: 'v1' },
		});
		const nodeType = nodeTypes.getByNameAndVersion(this.node.type, 1);
		const additionalData = {
			credentialsHelper: new HarnessCredentialsHelper(
				pkg.credentialTypes,
				this.options.credentials,
				onCredentialRead,
			),
			restApiUrl: `${this.endpoint.url}/rest`,
			instanceBaseUrl: `${this.endpoint.url}/`,
			webhookBaseUrl: `${this.endpoint.url}/webhook`,
			webhookWaitingBaseUrl: `${this.endpoint.url}/webhook-waiting`,
			webhookTestBaseUrl: `${this.endpoint.url}/webhook-test`,
			formBaseUrl: `${this.endpoint.url}/form`,
			formTestBaseUrl: `${this.endpoint.url}/form-test`,
			formWaitingBaseUrl: `${this.endpoint.url}/form-waiting`,
			variables: {},
			userId: 'harness-user',
			currentNodeExecutionIndex: 0,
		} as unknown as IWorkflowExecuteAdditionalData;
		const node = workflow.getNode(this.node.name) as INode;
		return { workflow, node, nodeType, additionalData };
	}

	private webhookData(
		workflow: Workflow,
		node: INode,
		nodeType: INodeType,
		additionalData: IWorkflowExecuteAdditionalData,
		test: boolean,
	): IWebhookData {
		const description = nodeType.description.webhooks?.[0] as IWebhookDescription;
		return {
			httpMethod: 'POST',
			node: node.name,
			path: NodeHelpers.getNodeWebhookPath(workflow.id, node, String(description.path)),
			webhookDescription: description,
			workflowId: workflow.id,
			workflowExecuteAdditionalData: additionalData,
			webhookId: node.webhookId,
			...(test ? { isTest: true } : {}),
		};
	}

	/** The `responseData` of the node's webhook description, which n8n's answer depends on. */
	async responseData(): Promise<unknown> {
		const nodeTypes = new HarnessNodeTypes((await loadPackage()).nodeTypes);
		return nodeTypes.getByNameAndVersion(this.node.type, 1).description.webhooks?.[0]?.responseData;
	}

	/** Runs one lifecycle method in n8n-core's `HookContext`, then keeps the static data as n8n would. */
	async hook(
		method: 'checkExists' | 'create' | 'delete',
		options: { test?: boolean; activation?: WorkflowActivateMode; mode?: WorkflowExecuteMode } = {},
	): Promise<boolean> {
		const test = options.test ?? false;
		const stored = test ? (this.testStaticData ?? clone(this.staticData)) : this.staticData;
		const { workflow, node, nodeType, additionalData } = await this.workflow(stored);
		const webhookData = this.webhookData(workflow, node, nodeType, additionalData, test);
		const context = new HookContext(
			workflow,
			node,
			additionalData,
			options.mode ?? (test ? 'manual' : 'trigger'),
			options.activation ?? (test ? 'manual' : 'activate'),
			webhookData,
		);
		recordLogs(context);
		const fn = nodeType.webhookMethods?.default?.[method];
		if (!fn) throw new Error(`${this.node.type} has no webhookMethods.default.${method}`);
		try {
			return (await fn.call(context)) as boolean;
		} finally {
			const saved = clone(workflow.staticData as IDataObject);
			if (test) this.testStaticData = saved;
			else this.staticData = saved;
		}
	}

	/** Publishing (activating) the workflow: `checkExists`, then `create` if it answered false. */
	async activate(activation: WorkflowActivateMode = 'activate'): Promise<void> {
		if (!(await this.hook('checkExists', { activation }))) {
			await this.hook('create', { activation });
		}
	}

	/** Unpublishing (deactivating) it. */
	async deactivate(): Promise<void> {
		await this.hook('delete', { activation: 'update', mode: 'internal' });
	}

	/** "Listen for test event": registers on the test URL, with static data of its own. */
	async listenForTest(): Promise<void> {
		this.testStaticData = clone(this.staticData);
		if (!(await this.hook('checkExists', { test: true }))) {
			await this.hook('create', { test: true });
		}
	}

	async stopListening(): Promise<void> {
		await this.hook('delete', { test: true, activation: 'update', mode: 'internal' });
		this.testStaticData = undefined;
	}

	/**
	 * One request to the node's webhook, in n8n-core's `WebhookContext`; each credential read during the call
	 * (what costs n8n an expression isolate) is added to `reads.credentials`, each parameter read (by name) to
	 * `reads.parameters`.
	 */
	async runWebhook(
		req: IncomingMessage,
		res: ServerResponse,
		test: boolean,
		reads: { credentials: string[]; parameters: string[] } = { credentials: [], parameters: [] },
	) {
		const { workflow, node, nodeType, additionalData } = await this.workflow(
			this.staticData,
			(type) => reads.credentials.push(type),
		);
		if (test) workflow.setTestStaticData(this.testStaticData ?? {});
		additionalData.httpRequest = req as never;
		additionalData.httpResponse = res as never;
		const webhookData = this.webhookData(workflow, node, nodeType, additionalData, test);
		const context = new WebhookContext(
			workflow,
			node,
			additionalData,
			test ? 'manual' : 'webhook',
			webhookData,
			[],
			null,
		);
		recordLogs(context);
		const getNodeParameter = context.getNodeParameter.bind(context);
		context.getNodeParameter = ((name: string, ...rest: never[]) => {
			reads.parameters.push(name);
			return getNodeParameter(name, ...rest);
		}) as typeof context.getNodeParameter;
		if (!nodeType.webhook) throw new Error(`${this.node.type} has no webhook()`);
		const read = JSON.stringify(workflow.staticData);
		const result = await nodeType.webhook.call(context);
		await this.beforeDeliverySaves?.();
		// As n8n 2.40 does (docs/n8n-findings.md): static data that `webhook()` changed is saved, over the whole
		// column, only when the call starts no execution, because building the execution's workflow clears the
		// "changed" flag. A test run's static data stays with its registration only.
		if (!test && !result.workflowData && JSON.stringify(workflow.staticData) !== read) {
			this.staticData = clone(workflow.staticData as IDataObject);
		}
		return result;
	}
}
