/**
 * What the trigger tests share: a sandbox on loopback, the stand-in for n8n's webhook endpoint (n8n-core's
 * `WebhookContext`), and trigger nodes made against them with the seeded workspace's keys, the activated ones
 * deactivated when the file ends. `useMessagingTrigger` adds a connected instance and triggers on
 * `message.received`.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { Sandbox, SandboxOptions } from '../../sandbox/server';
import {
	N8nEndpoint,
	TRIGGER_TYPES,
	TriggerUnderTest,
	type TriggerOptions,
} from '../../dev/harness/triggers';
import {
	clientsFor,
	connectedInstance,
	raw,
	startTestSandbox,
	type RawResponse,
	type SandboxKeys,
} from './sandbox';
import { waitFor } from './waiting';

/** A trigger's options; the credentials are the three of the seeded workspace unless given. */
export type TriggerSetup = Omit<TriggerOptions, 'credentials'> & Partial<TriggerOptions>;

export interface TriggerSuite {
	sandbox: Sandbox;
	keys: SandboxKeys;
	clients: ReturnType<typeof clientsFor>;
	endpoint: N8nEndpoint;
	/** The three credentials, each with its key of the seeded workspace at the sandbox. */
	credentials(): TriggerOptions['credentials'];
	/** A trigger node, not activated. */
	trigger(setup: TriggerSetup): TriggerUnderTest;
	/** A trigger node, activated now and deactivated when the file ends. */
	activated(setup: TriggerSetup): Promise<TriggerUnderTest>;
}

/** Registers the file's `beforeAll`/`afterAll`; the suite's fields are set once `beforeAll` ran. */
export function useTriggerSuite(options: SandboxOptions = { rateLimit: false }): TriggerSuite {
	const active: TriggerUnderTest[] = [];
	const suite = {} as TriggerSuite;
	Object.assign(suite, {
		credentials: () => ({
			multichannelApi: { baseUrl: suite.sandbox.baseUrl, apiKey: suite.keys.workspace },
			multichannelShortLinkApi: { baseUrl: suite.sandbox.baseUrl, apiKey: suite.keys.shortLink },
			multichannelAutomationApi: { baseUrl: suite.sandbox.baseUrl, apiKey: suite.keys.automation },
		}),
		trigger: (setup: TriggerSetup) =>
			new TriggerUnderTest(suite.endpoint, { credentials: suite.credentials(), ...setup }),
		async activated(setup: TriggerSetup) {
			const node = suite.trigger(setup);
			await node.activate();
			active.push(node);
			return node;
		},
	} satisfies Pick<TriggerSuite, 'credentials' | 'trigger' | 'activated'>);
	beforeAll(async () => {
		suite.sandbox = await startTestSandbox(options);
		suite.keys = suite.sandbox.keys as SandboxKeys;
		suite.clients = clientsFor(suite.sandbox.baseUrl, suite.keys);
		suite.endpoint = await new N8nEndpoint().start();
	});
	afterAll(async () => {
		for (const node of active) await node.deactivate();
		await suite.endpoint?.close();
		await suite.sandbox?.close();
	});
	return suite;
}

export interface MessagingTriggerSuite {
	sandbox: Sandbox;
	keys: SandboxKeys;
	endpoint: N8nEndpoint;
	client: ReturnType<typeof clientsFor>['workspace'];
	/** The connected instance contacts write to. */
	instanceId: string;
	/** A sandbox-only call (`/sandbox/…`) with the workspace key. */
	sandboxCall(path: string, body?: unknown): Promise<RawResponse>;
	/** A Multichannel Trigger on `message.received` (or `events`), activated with these options. */
	activated(options: INodeParameters, name: string, events?: string[]): Promise<TriggerUnderTest>;
	/**
	 * The message ids a trigger started for, once it heard `count` events. Distinct: on a loaded machine an
	 * answer held past the service's 10 s is delivered again and may run again (README, Limits), which is not
	 * what these tests look at.
	 */
	startedFor(node: TriggerUnderTest, count: number, timeoutMs?: number): Promise<string[]>;
	/** Why the trigger acknowledged deliveries without starting the workflow: each reason once, sorted. */
	skipReasons(node: TriggerUnderTest): string[];
	/**
	 * The events a trigger ran, each once (by id), once it heard `count` distinct events (run or skipped);
	 * deliveries of different events may run in any order.
	 */
	eventsRun(node: TriggerUnderTest, count: number, timeoutMs?: number): Promise<RunEvent[]>;
}

/** An event as a trigger's run received it. */
export interface RunEvent {
	id: string;
	type: string;
	data: Record<string, unknown>;
}

/** A trigger suite with a connected instance, for the Multichannel Trigger on `message.received`. */
export function useMessagingTrigger(
	instanceName: string,
	phoneNumber: string,
): MessagingTriggerSuite {
	const triggers = useTriggerSuite();
	const suite = {
		sandboxCall: (path: string, body: unknown = {}) =>
			raw(suite.sandbox.baseUrl, 'POST', path, { key: suite.keys.workspace, body }),
		activated: (options: INodeParameters, name: string, events = ['message.received']) =>
			triggers.activated({
				type: TRIGGER_TYPES.messaging,
				name,
				credentials: {
					multichannelApi: { baseUrl: suite.sandbox.baseUrl, apiKey: suite.keys.workspace },
				},
				parameters: { events, options },
			}),
		async startedFor(node: TriggerUnderTest, count: number, timeoutMs = 30_000) {
			// Settled events: answered 2xx (run, or skipped for good). An error answer (a claim that could not be
			// made in time on a loaded machine) is delivered again and may run then.
			const eventIds = () =>
				new Set(
					suite.endpoint
						.of(node)
						.filter((delivery) => delivery.status >= 200 && delivery.status < 300)
						.map((delivery) => (JSON.parse(delivery.rawBody) as { id: string }).id),
				);
			await waitFor(
				() => eventIds().size >= count,
				timeoutMs,
				`${count} events to ${node.node.name}`,
			);
			const ids = suite.endpoint
				.executions(node)
				.map((delivery) => (delivery.items?.[0].json.data as { id: string }).id);
			return [...new Set(ids)].sort();
		},
		async eventsRun(node: TriggerUnderTest, count: number, timeoutMs = 60_000) {
			const heard = () =>
				new Set(
					suite.endpoint
						.of(node)
						.map((delivery) => (JSON.parse(delivery.rawBody) as { id: string }).id),
				);
			await waitFor(() => heard().size >= count, timeoutMs, `${count} events to ${node.node.name}`);
			const runs = new Map<string, RunEvent>();
			for (const delivery of suite.endpoint.executions(node)) {
				const event = delivery.items?.[0].json as unknown as RunEvent;
				runs.set(event.id, event);
			}
			return [...runs.values()];
		},
		skipReasons: (node: TriggerUnderTest) =>
			[
				...new Set(
					suite.endpoint
						.of(node)
						.filter((delivery) => !delivery.items)
						.map((delivery) => (JSON.parse(delivery.responseBody) as { reason: string }).reason),
				),
			].sort(),
	} as MessagingTriggerSuite;
	beforeAll(async () => {
		suite.sandbox = triggers.sandbox;
		suite.keys = triggers.keys;
		suite.endpoint = triggers.endpoint;
		suite.client = triggers.clients.workspace;
		suite.instanceId = (await connectedInstance(suite.sandbox, instanceName, phoneNumber)).id;
	});
	return suite;
}
