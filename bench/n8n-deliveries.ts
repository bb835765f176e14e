/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the benchmark runs in plain Node, never inside n8n: it starts a real n8n and the sandbox (dev/stack/stack.mjs) */
/**
 * Signed webhook deliveries into a real n8n (the package installed as a community package, as
 * `npm run test:e2e` does), side by side with n8n's own Webhook node in the same n8n. Two active workflows
 * with the same settings (every execution saved):
 *
 *   Multichannel Automation Trigger (all events) → No Operation
 *   Webhook (POST, respond immediately)          → No Operation
 *
 * Each gets the same automation events (`automation.order_paid`, distinct ids), signed, with the same headers,
 * N at a time from a sender process of its own (`sendDeliveries` of bench/measure.ts). The secret is the one
 * the trigger registered at the sandbox on activation, read from the workflow's static data through n8n's
 * public API (`GET /workflows/{id}`); the Webhook node ignores the signature. After each run the executions
 * are counted through the public API: each workflow must have run exactly once per delivery (warm-up
 * included) and every execution must have succeeded, or there is no figure.
 *
 * With `queue: true`, the same in n8n's queue mode: main, webhook process and worker, on PostgreSQL and Redis.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { runtimeModule, stackModule, type N8nClient, type Stack } from '../dev/stack/modules';
import { processCpuMs } from './lib';
import type { DeliveryType, Timing } from './measure';

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

/** The same for both workflows, so that both save their executions the same way. */
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

type StaticData = Record<string, { webhooks?: Record<string, { secret: string }> }> | null;

/**
 * The production webhook the trigger registered at the sandbox on activation: its URL and signing secret,
 * from the workflow's static data (which n8n saves a moment after activating).
 */
async function registration(client: N8nClient, workflowId: string) {
	const deadline = Date.now() + 30_000;
	for (;;) {
		const { staticData } = (await client.api('GET', `/workflows/${workflowId}`)) as {
			staticData?: StaticData;
		};
		const webhooks = Object.entries(staticData?.[`node:${TRIGGER_NAME}`]?.webhooks ?? {});
		if (webhooks.length === 1) return { url: webhooks[0][0], secret: webhooks[0][1].secret };
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

/** Both workflows, active: where each takes its deliveries, and the secret the trigger registered. */
async function activateBoth(stack: Stack) {
	const { client } = stack.n8n;
	const triggerId = await createActive(
		client,
		workflow('bench: Multichannel Automation Trigger', {
			name: TRIGGER_NAME,
			type: 'n8n-nodes-multichannel.multichannelAutomationTrigger',
			typeVersion: 1,
			parameters: { listenTo: 'all', options: {} },
			credentials: { multichannelAutomationApi: stack.credentials.multichannelAutomationApi },
		}),
	);
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
	const { url, secret } = await registration(client, triggerId);
	// The same base URL as the trigger's `<WEBHOOK_URL>webhook/<its webhook id>/webhook`.
	const webhookUrl = `${url.slice(0, url.lastIndexOf('/webhook/'))}/webhook/${WEBHOOK_PATH}`;
	return {
		secret,
		targets: {
			trigger: { workflowId: triggerId, url, runs: [] as DeliveryRun[] },
			webhook: { workflowId: webhookId, url: webhookUrl, runs: [] as DeliveryRun[] },
		},
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
}

export interface N8nDeliveriesOptions {
	queue: boolean;
	deliveries: number;
	concurrency: number;
	warmup: number;
	/** Runs per workflow, alternating which goes first; the fastest of each counts. */
	repeat: number;
	/** Runs `sendDeliveries` of bench/measure.ts in a fresh process. */
	send(job: Record<string, unknown>): Promise<Timing & { startedAt: number }>;
	log(text: string): void;
}

type Target = Awaited<ReturnType<typeof activateBoth>>['targets']['trigger'];

/** The n8n processes that answer production webhooks: n8n itself, or the webhook processes of queue mode. */
function answeringPids(stack: Stack): number[] {
	return (stack.queue?.n8n?.webhooks ?? stack.n8n.services).map((service) => service.child.pid);
}

/**
 * One run: the warm-up, then the timed deliveries in a sender process of their own, with the CPU time the
 * answering n8n processes spent meanwhile; then n8n's executions counted.
 */
async function runOnce(
	stack: Stack,
	target: Target,
	secret: string,
	options: N8nDeliveriesOptions,
) {
	const job = {
		url: target.url,
		secret,
		concurrency: options.concurrency,
		type: DELIVERY_TYPE,
	};
	await options.send({ ...job, count: 0, warmup: options.warmup });
	const cpuBefore = processCpuMs(answeringPids(stack));
	const timing = await options.send({ ...job, count: options.deliveries, warmup: 0 });
	const cpuAfter = processCpuMs(answeringPids(stack));
	const executions = (target.runs.length + 1) * (options.deliveries + options.warmup);
	const timeoutMs = 60_000 + options.deliveries * 100;
	const lastStoppedAt = await settle(stack.n8n.client, target.workflowId, executions, timeoutMs);
	const cpuMsPerDelivery =
		cpuBefore === undefined || cpuAfter === undefined
			? undefined
			: (cpuAfter - cpuBefore) / options.deliveries;
	return { ...timing, lastStoppedAt, executions, cpuMsPerDelivery };
}

/** Runs of both workflows in the stack's n8n, each checked against n8n's executions; the fastest of each. */
async function measureBoth(stack: Stack, options: N8nDeliveriesOptions) {
	const { secret, targets } = await activateBoth(stack);
	for (let attempt = 0; attempt < options.repeat; attempt++) {
		const order = attempt % 2 === 0 ? ['trigger', 'webhook'] : ['webhook', 'trigger'];
		for (const name of order as Array<keyof typeof targets>) {
			options.log(`n8n: ${options.deliveries} deliveries to the ${name} workflow…`);
			const run = await runOnce(stack, targets[name], secret, options);
			targets[name].runs.push(run);
			options.log(
				`n8n: ${name}: ${(run.wallMs / 1000).toFixed(2)} s, ${(run.count / (run.wallMs / 1000)).toFixed(1)}/s, ${run.cpuMsPerDelivery?.toFixed(1)} ms CPU each; ${run.executions} executions, as many as deliveries`,
			);
		}
	}
	const fastest = (runs: DeliveryRun[]) => runs.reduce((a, b) => (b.wallMs < a.wallMs ? b : a));
	const leastCpu = (runs: DeliveryRun[]) =>
		Math.min(...runs.map((run) => run.cpuMsPerDelivery ?? NaN));
	return {
		trigger: { ...fastest(targets.trigger.runs), leastCpuMs: leastCpu(targets.trigger.runs) },
		webhook: { ...fastest(targets.webhook.runs), leastCpuMs: leastCpu(targets.webhook.runs) },
	};
}

/** Starts the stack (n8n in one process, or in queue mode) in a temporary folder, measures, stops it. */
export async function n8nDeliveries(options: N8nDeliveriesOptions) {
	const { queue, log } = options;
	const dir = mkdtempSync(path.join(tmpdir(), 'multichannel-bench-n8n-'));
	const { startHeadlessStack } = await stackModule();
	let stack: Stack | undefined;
	let measured = false;
	try {
		// No rate limit, as in the rest of the bench: the trigger's claim of each event is an API request, and
		// past the sandbox's default 600 a minute per key a delivery waits out the 429's Retry-After.
		const sandboxArgs = ['--rate-limit', '0'];
		stack = await startHeadlessStack({ dir, log, sandboxArgs, ...(queue ? { queue } : {}) });
		if (queue && !stack.queue) throw new Error('dev/stack/stack.mjs started no queue mode');
		const result = await measureBoth(stack, options);
		measured = true;
		return result;
	} finally {
		await stack?.stop();
		const database = stack?.queue?.postgres?.dataDir;
		if (database) rmSync(database, { recursive: true, force: true });
		if (measured) rmSync(dir, { recursive: true, force: true });
		else log(`n8n deliveries: kept ${dir} (n8n's and the sandbox's logs)`);
	}
}
