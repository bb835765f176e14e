/**
 * What the Multichannel Trigger tests share: a sandbox on loopback with a connected instance, the stand-in for
 * n8n's webhook endpoint (n8n-core's `WebhookContext`), and triggers on `message.received` activated against
 * them with chosen options, deactivated when the file ends.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox/server';
import { N8nEndpoint, TRIGGER_TYPES, TriggerUnderTest } from '../../dev/harness/triggers';
import { clientsFor, connectedInstance, raw, startTestSandbox, type RawResponse } from './sandbox';

type Keys = NonNullable<Sandbox['keys']>;

export interface MessagingTriggerSuite {
	sandbox: Sandbox;
	keys: Keys;
	endpoint: N8nEndpoint;
	client: ReturnType<typeof clientsFor>['workspace'];
	/** The connected instance contacts write to. */
	instanceId: string;
	/** A sandbox-only call (`/sandbox/…`) with the workspace key. */
	sandboxCall(path: string, body?: unknown): Promise<RawResponse>;
	/** A Multichannel Trigger on `message.received`, activated with these options. */
	activated(options: INodeParameters, name: string): Promise<TriggerUnderTest>;
}

/** Registers the file's `beforeAll`/`afterAll`; the suite's fields are set once `beforeAll` ran. */
export function useMessagingTrigger(
	instanceName: string,
	phoneNumber: string,
): MessagingTriggerSuite {
	const active: TriggerUnderTest[] = [];
	const suite = {
		sandboxCall: (path: string, body: unknown = {}) =>
			raw(suite.sandbox.baseUrl, 'POST', path, { key: suite.keys.workspace, body }),
		async activated(options: INodeParameters, name: string) {
			const node = new TriggerUnderTest(suite.endpoint, {
				type: TRIGGER_TYPES.messaging,
				name,
				credentials: {
					multichannelApi: { baseUrl: suite.sandbox.baseUrl, apiKey: suite.keys.workspace },
				},
				parameters: { events: ['message.received'], options },
			});
			await node.activate();
			active.push(node);
			return node;
		},
	} as MessagingTriggerSuite;
	beforeAll(async () => {
		suite.sandbox = await startTestSandbox({ rateLimit: false });
		suite.keys = suite.sandbox.keys as Keys;
		suite.client = clientsFor(suite.sandbox.baseUrl, suite.keys).workspace;
		suite.endpoint = await new N8nEndpoint().start();
		suite.instanceId = (await connectedInstance(suite.sandbox, instanceName, phoneNumber)).id;
	});
	afterAll(async () => {
		for (const node of active) await node.deactivate();
		await suite.endpoint?.close();
		await suite.sandbox?.close();
	});
	return suite;
}
