/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the benchmark runs in plain Node, never inside n8n: it starts a real n8n and the sandbox (dev/stack/stack.mjs), with the environment of each engine setting (process.env) */
/**
 * Signed webhook deliveries into a real n8n (the package installed as a community package, as
 * `npm run test:e2e` does), side by side with n8n's own Webhook node in the same n8n. Active workflows with the
 * same settings (every execution saved):
 *
 *   Multichannel Automation Trigger, version 2 (all events)         → No Operation
 *   Multichannel Automation Trigger, version 1 (`order_paid` only)  → No Operation (with the lazy engine only)
 *   Webhook (POST, respond immediately)                             → No Operation
 *
 * Each gets the same automation events (`automation.order_paid`, distinct ids), signed, with the same headers,
 * N at a time from a sender process of its own (`sendDeliveries` of bench/measure.ts). The secret is the one
 * the trigger registered at the sandbox on activation, read from the workflow's static data through n8n's
 * public API (`GET /workflows/{id}`); the Webhook node ignores the signature. After each run the executions
 * are counted through the public API: each workflow must have run exactly once per delivery (warm-up
 * included) and every execution must have succeeded, or there is no figure.
 *
 * The same n8n runs under each expression-engine setting in turn (ENGINE_SETTINGS), restarted with its
 * environment; under n8n's default one a burst of events also goes through the sandbox (bench/n8n-burst.ts).
 * With `queue: true`, all of it in n8n's queue mode: main, webhook process and worker, on PostgreSQL and Redis.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { runtimeModule, stackModule, type N8nClient, type Stack } from '../dev/stack/modules';
import { processCpuMs } from './lib';
import type { DeliveryType, Timing } from './measure';
import { burst, type BurstResult } from './n8n-burst';
import { engineCounts, METRICS_ENV, perDelivery } from './n8n-metrics';

/** The pinned n8n version, or why the real-n8n figures cannot be measured here. */
export async function n8nRuntime(): Promise<{ version: string; missing?: string }> {
	const runtime = await runtimeModule();
	return {
		version: runtime.N8N_VERSION,
		missing: runtime.runtimeReady()
			? undefined
			: `n8n ${runtime.N8N_VERSION} is not installed: run \`npm run setup:n8n\` (about 5 minutes, 3 GB)`,
	};
}

const TRIGGER_NAME = 'Multichannel Automation Trigger';
const WEBHOOK_PATH = 'multichannel-bench-deliveries';
const DELIVERY_TYPE: DeliveryType = 'automation.order_paid';

/** The expression-engine settings measured, in this order: n8n restarted with each environment. */
export const ENGINE_SETTINGS = {
	skipOff: { N8N_EXPRESSION_ENGINE_ALLOW_WEBHOOK_ISOLATE_SKIP: 'false' },
	lazy: { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' },
	// Last: the burst at its end may leave redeliveries behind.
	default: {},
} as const;
export type EngineSetting = keyof typeof ENGINE_SETTINGS;
const ENGINE_KEYS = [
	'N8N_EXPRESSION_ENGINE_ALLOW_WEBHOOK_ISOLATE_SKIP',
	'N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE',
];

/** The workflows each setting measures. */
const MEASURED: Record<EngineSetting, TargetName[]> = {
	default: ['trigger', 'webhook'],
	skipOff: ['trigger', 'webhook'],
	lazy: ['trigger', 'triggerV1', 'webhook'],
};

/** The same for every workflow, so that all save their executions the same way. */
const SETTINGS = {
	executionOrder: 'v1',
	saveDataSuccessExecution: 'all',
	saveDataErrorExecution: 'all',
	saveManualExecutions: false,
	saveExecutionProgress: false,
};

/** `first` → No Operation, as `POST /workflows` takes it. */
function workflow(name: string, first: { name: string } & Record<string, unknown>) {
	const noOp = {
		id: randomUUID(),
		name: 'No Operation',
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [220, 0],
		parameters: {},
	};
	return {
		name,
		settings: SETTINGS,
		nodes: [{ id: randomUUID(), webhookId: randomUUID(), position: [0, 0], ...first }, noOp],
		connections: { [first.name]: { main: [[{ node: noOp.name, type: 'main', index: 0 }]] } },
	};
}

async function createActive(client: N8nClient, body: ReturnType<typeof workflow>) {
	const { id } = (await client.api('POST', '/workflows', body)) as { id: string };
	await client.api('POST', `/workflows/${id}/activate`);
	return id;
}

type StaticData = Record<
	string,
	{ webhooks?: Record<string, { secret: string; webhookId: string }> }
> | null;

/**
 * The production webhook the trigger registered at the sandbox on activation: its URL, signing secret and id
 * at the sandbox, from the workflow's static data (which n8n saves a moment after activating).
 */
async function registration(client: N8nClient, workflowId: string) {
	const deadline = Date.now() + 30_000;
	for (;;) {
		const { staticData } = (await client.api('GET', `/workflows/${workflowId}`)) as {
			staticData?: StaticData;
		};
		const webhooks = Object.entries(staticData?.[`node:${TRIGGER_NAME}`]?.webhooks ?? {});
		if (webhooks.length === 1) {
			const [url, { secret, webhookId }] = webhooks[0];
			return { url, secret, webhookId };
		}
		if (Date.now() > deadline) {
			throw new Error(`The trigger has ${webhooks.length} webhook registrations, expected 1`);
		}
		await sleep(250);
	}
}

interface ExecutionSummary {
	id: string;
	status: string;
	stoppedAt: string | null;
}

/**
 * Waits until the workflow has exactly `expected` finished executions, all successful; when the last one
 * stopped (epoch ms). More executions than deliveries, fewer by the deadline or a failed one: an error.
 */
async function settle(client: N8nClient, workflowId: string, expected: number, timeoutMs: number) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const executions = (await client.listAll(
			`/executions?workflowId=${workflowId}`,
		)) as ExecutionSummary[];
		const finished = executions.filter((execution) => execution.stoppedAt !== null);
		if (executions.length > expected) {
			throw new Error(`${executions.length} executions for ${expected} deliveries: some ran twice`);
		}
		if (finished.length === expected) {
			const failed = finished.find((execution) => execution.status !== 'success');
			if (failed) throw new Error(`Execution ${failed.id} ended ${failed.status}`);
			return finished.reduce((last, { stoppedAt }) => Math.max(last, Date.parse(stoppedAt!)), 0);
		}
		if (Date.now() > deadline) {
			throw new Error(
				`${finished.length} finished executions (${executions.length} in all) for ${expected} deliveries after ${timeoutMs / 1000} s: deliveries were lost`,
			);
		}
		await sleep(500);
	}
}

/** A workflow under measurement: where it takes deliveries, and how many executions it must have had. */
interface Target {
	workflowId: string;
	url: string;
	/** The trigger's webhook at the sandbox. */
	webhookId?: string;
	executions: number;
}
type TargetName = 'trigger' | 'triggerV1' | 'webhook';

/** The workflows, active: where each takes its deliveries, and the secret each trigger registered. */
async function activateAll(stack: Stack) {
	const { client } = stack.n8n;
	const credentials = { multichannelAutomationApi: stack.credentials.multichannelAutomationApi };
	const trigger = async (typeVersion: number, parameters: Record<string, unknown>) => {
		const id = await createActive(
			client,
			workflow(`bench: Multichannel Automation Trigger v${typeVersion}`, {
				name: TRIGGER_NAME,
				type: 'n8n-nodes-multichannel.multichannelAutomationTrigger',
				typeVersion,
				parameters: { ...parameters, options: {} },
				credentials,
			}),
		);
		const { url, secret, webhookId } = await registration(client, id);
		return { secret, target: { workflowId: id, url, webhookId, executions: 0 } };
	};
	const latest = await trigger(2, { listenTo: 'all' });
	// Version 1 takes only the events the bench sends, so that the burst goes to version 2 alone.
	const old = await trigger(1, { listenTo: 'chosen', eventNames: 'order_paid' });
	const webhookId = await createActive(
		client,
		workflow("bench: n8n's Webhook node", {
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			parameters: {
				httpMethod: 'POST',
				path: WEBHOOK_PATH,
				responseMode: 'onReceived',
				options: {},
			},
		}),
	);
	// The same base URL as the trigger's `<WEBHOOK_URL>webhook/<its webhook id>/webhook`.
	const { url } = latest.target;
	const webhookUrl = `${url.slice(0, url.lastIndexOf('/webhook/'))}/webhook/${WEBHOOK_PATH}`;
	const targets: Record<TargetName, Target> = {
		trigger: latest.target,
		triggerV1: old.target,
		webhook: { workflowId: webhookId, url: webhookUrl, executions: 0 },
	};
	return {
		secrets: { trigger: latest.secret, triggerV1: old.secret, webhook: latest.secret },
		targets,
	};
}

export interface DeliveryRun extends Timing {
	/** Epoch ms: when the timed deliveries began, and when the last execution stopped. */
	startedAt: number;
	lastStoppedAt: number;
	/** Executions of the workflow counted after this run (all runs, warm-ups included). */
	executions: number;
	/** CPU time of the n8n processes that answer webhooks, per timed delivery (Linux only). */
	cpuMsPerDelivery?: number;
	/** Isolates the answering process acquired, and evaluations that reached its engine, per timed delivery. */
	isolates: number;
	evaluations: number;
}

export interface N8nDeliveriesOptions {
	queue: boolean;
	deliveries: number;
	concurrency: number;
	warmup: number;
	/** Runs per workflow and setting, alternating which goes first; the one with the least CPU counts. */
	repeat: number;
	/** Events published at once for the burst (0: none). */
	burst: number;
	/** Runs `sendDeliveries` of bench/measure.ts in a fresh process. */
	send(job: Record<string, unknown>): Promise<Timing & { startedAt: number }>;
	log(text: string): void;
}

/** The n8n processes that answer production webhooks: n8n itself, or the webhook processes of queue mode. */
function answeringPids(stack: Stack): number[] {
	return (stack.queue?.n8n?.webhooks ?? stack.n8n.services).map((service) => service.child.pid);
}

/**
 * One run: the warm-up, then the timed deliveries in a sender process of their own, with the CPU time the
 * answering n8n processes spent meanwhile; then n8n's executions counted, and the engine's counters read.
 */
async function runOnce(
	stack: Stack,
	target: Target,
	secret: string,
	options: N8nDeliveriesOptions,
): Promise<DeliveryRun> {
	const announce = target.webhookId
		? {
				url: `${stack.sandbox.baseUrl}/sandbox/webhooks/${target.webhookId}/announced-deliveries`,
				key: stack.sandbox.keys.workspace,
			}
		: undefined;
	const job = {
		url: target.url,
		secret,
		concurrency: options.concurrency,
		type: DELIVERY_TYPE,
		...(announce ? { announce } : {}),
	};
	await options.send({ ...job, count: 0, warmup: options.warmup });
	const countsBefore = await engineCounts(stack.n8n.webhookUrl);
	const cpuBefore = processCpuMs(answeringPids(stack));
	const timing = await options.send({ ...job, count: options.deliveries, warmup: 0 });
	const cpuAfter = processCpuMs(answeringPids(stack));
	target.executions += options.deliveries + options.warmup;
	const timeoutMs = 60_000 + options.deliveries * 100;
	const { client } = stack.n8n;
	const lastStoppedAt = await settle(client, target.workflowId, target.executions, timeoutMs);
	// After the executions: in one process they acquire their isolates there too.
	const counts = perDelivery(countsBefore, await engineCounts(stack.n8n.webhookUrl), timing.count);
	const cpuMsPerDelivery =
		cpuBefore === undefined || cpuAfter === undefined
			? undefined
			: (cpuAfter - cpuBefore) / options.deliveries;
	return { ...timing, lastStoppedAt, executions: target.executions, cpuMsPerDelivery, ...counts };
}

/** n8n's environment for a setting: the engine's variables of that setting only, and the metrics. */
function useSetting(setting: EngineSetting) {
	for (const key of ENGINE_KEYS) delete process.env[key];
	Object.assign(process.env, METRICS_ENV, ENGINE_SETTINGS[setting]);
}

export type SettingResult = Partial<Record<TargetName, DeliveryRun>>;

/** Runs of each setting's workflows, each checked against n8n's executions; the least CPU of each. */
async function measureAll(stack: Stack, options: N8nDeliveriesOptions) {
	const { secrets, targets } = await activateAll(stack);
	const results = {} as Record<EngineSetting, SettingResult>;
	let burstResult: BurstResult | undefined;
	const order = Object.keys(ENGINE_SETTINGS) as EngineSetting[];
	for (const setting of order) {
		if (setting !== order[0]) {
			options.log(`n8n: restarting with ${JSON.stringify(ENGINE_SETTINGS[setting])}…`);
			useSetting(setting);
			await stack.n8n.restart();
			// Each trigger checks its registration again on activation: the secrets as they are now.
			for (const name of ['trigger', 'triggerV1'] as const) {
				const now = await registration(stack.n8n.client, targets[name].workflowId);
				Object.assign(targets[name], { url: now.url, webhookId: now.webhookId });
				secrets[name] = now.secret;
			}
		}
		const runs: Partial<Record<TargetName, DeliveryRun[]>> = {};
		for (let attempt = 0; attempt < options.repeat; attempt++) {
			const names = MEASURED[setting];
			for (const name of attempt % 2 === 0 ? names : [...names].reverse()) {
				options.log(`n8n (${setting}): ${options.deliveries} deliveries to the ${name} workflow…`);
				const run = await runOnce(stack, targets[name], secrets[name], options);
				(runs[name] ??= []).push(run);
				options.log(
					`n8n (${setting}): ${name}: ${(run.wallMs / 1000).toFixed(2)} s, ${(run.count / (run.wallMs / 1000)).toFixed(1)}/s, ${run.cpuMsPerDelivery?.toFixed(1)} ms CPU, ${run.isolates.toFixed(2)} isolates and ${run.evaluations.toFixed(2)} evaluations each; ${run.executions} executions, as many as deliveries`,
				);
			}
		}
		const leastCpu = (list: DeliveryRun[]) =>
			list.reduce((a, b) =>
				(b.cpuMsPerDelivery ?? b.wallMs) < (a.cpuMsPerDelivery ?? a.wallMs) ? b : a,
			);
		results[setting] = Object.fromEntries(
			Object.entries(runs).map(([name, list]) => [name, leastCpu(list)]),
		) as SettingResult;
		if (setting === 'default' && options.burst > 0) {
			options.log(`n8n: a burst of ${options.burst} events through the sandbox…`);
			const { workflowId, webhookId } = targets.trigger;
			burstResult = await burst(
				stack,
				{ workflowId, webhookId: webhookId!, nodeName: TRIGGER_NAME },
				{
					events: options.burst,
					timeoutMs: 240_000,
				},
			);
			options.log(`n8n: burst: ${JSON.stringify(burstResult)}`);
		}
	}
	return { settings: results, burst: burstResult };
}

/** Starts the stack (n8n in one process, or in queue mode) in a temporary folder, measures, stops it. */
export async function n8nDeliveries(options: N8nDeliveriesOptions) {
	const { queue, log } = options;
	const dir = mkdtempSync(path.join(tmpdir(), 'multichannel-bench-n8n-'));
	const { startHeadlessStack } = await stackModule();
	const saved = Object.fromEntries(ENGINE_KEYS.map((key) => [key, process.env[key]]));
	let stack: Stack | undefined;
	let measured = false;
	try {
		useSetting(Object.keys(ENGINE_SETTINGS)[0] as EngineSetting);
		// No rate limit, as in the rest of the bench: the trigger's claim of each event is an API request, and
		// past the sandbox's default 600 a minute per key a delivery waits out the 429's Retry-After.
		const sandboxArgs = ['--rate-limit', '0'];
		stack = await startHeadlessStack({ dir, log, sandboxArgs, ...(queue ? { queue } : {}) });
		if (queue && !stack.queue) throw new Error('dev/stack/stack.mjs started no queue mode');
		const result = await measureAll(stack, options);
		measured = true;
		return result;
	} finally {
		await stack?.stop();
		for (const [key, value] of Object.entries(saved)) {
			if (value === undefined) delete process.env[key];
			else process.env[key] = value;
		}
		const database = stack?.queue?.postgres?.dataDir;
		if (database) rmSync(database, { recursive: true, force: true });
		if (measured) rmSync(dir, { recursive: true, force: true });
		else log(`n8n deliveries: kept ${dir} (n8n's and the sandbox's logs)`);
	}
}
