// What the end-to-end test files share: a stack per `describe` block (started before its tests, stopped after them
// with the check that no process is left), a watchdog, and helpers over n8n's public API and the sandbox.
//   E2E_TIMEOUT_MS     the watchdog (default 15 minutes per test file)
//   E2E_SKIP_BUILD=1   reuse dist/ and the sandbox bundle as they are
//   E2E_KEEP=1         keep the temporary folders (logs of every process) for a look afterwards
//   MULTICHANNEL_CONTRACT_PROXY=1  everything reaches the sandbox through Prism (dev/contract/proxy.mjs); each file
//                      writes its report to node_modules/.cache/contract/e2e-<file>.json and fails on a violation
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, before } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import {
	collectPages,
	prepareWorkflow,
	sandboxCall,
	startHeadlessStack,
} from '../../dev/stack/stack.mjs';
import { stopOnSignals } from '../../dev/stack/processes.mjs';
import { minValidated, REPORT_DIR, writeReport } from '../../dev/contract/report.mjs';
import { attachSharedStack, E2E_SANDBOX_ARGS, sharedStackVariable } from './shared-stack.mjs';

const TIMEOUT_MS = Number(process.env.E2E_TIMEOUT_MS ?? 900_000);
/** The statuses of an execution that is over. */
const FINISHED = new Set(['success', 'error', 'crashed', 'canceled']);

export const log = (message) => process.stderr.write(`[e2e] ${message}\n`);

/** A person's browser: the sandbox's redirect counts a click without one as a bot's (Skip Bot Clicks drops it). */
export const BROWSER_UA =
	'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

/** Polls `probe` until it returns something truthy. */
export async function eventually(what, probe, timeoutMs = 30_000) {
	const deadline = Date.now() + timeoutMs;
	let last;
	for (;;) {
		try {
			last = await probe();
			if (last) return last;
		} catch (error) {
			last = error;
		}
		if (Date.now() > deadline)
			throw new Error(
				`timed out waiting for ${what} (last: ${last?.message ?? JSON.stringify(last)})`,
			);
		await sleep(250);
	}
}

/**
 * An example workflow of examples/ as n8n's public API can start it: its Manual Trigger `start` becomes a Webhook
 * node (POST `path`, answered at once; the API cannot run a Manual Trigger), every other trigger gets a fresh
 * webhook id, and `change(node)` may adapt the other nodes.
 */
export function exampleWithWebhook(file, { start, path, change = (node) => node }) {
	const example = JSON.parse(
		readFileSync(new URL(`../../examples/${file}`, import.meta.url), 'utf8'),
	);
	return {
		...example,
		name: `${example.name} (e2e ${path})`,
		nodes: example.nodes.map((node) => {
			if (node.name === start) {
				return {
					...node,
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
					webhookId: randomUUID(),
				};
			}
			return change(node.webhookId ? { ...node, webhookId: randomUUID() } : node);
		}),
	};
}

/** The items a node output in an execution's first run. */
export function nodeOutput(execution, nodeName) {
	const runs = execution.data?.resultData?.runData?.[nodeName];
	return runs?.[0]?.data?.main?.[0]?.map((item) => item.json) ?? [];
}

/**
 * Notes a stack booted (or a shared one attached) for e2e/run.mjs's table, in the file E2E_BOOTS names: one JSON
 * line per boot, with the test file and its time.
 */
function reportBoot(boot) {
	if (!process.env.E2E_BOOTS) return;
	const file = basename(process.argv[1] ?? '');
	appendFileSync(process.env.E2E_BOOTS, `${JSON.stringify({ file, ...boot })}\n`);
}

// The run is bounded: whatever hangs, every stack started is stopped and the process ends.
const live = new Set();
let watchdog;
function armWatchdog() {
	// Ended from outside (CI ending the run after a failed step, Ctrl-C): the stacks' processes live in process
	// groups of their own, so they are stopped here, or they would outlive the run.
	if (!watchdog) {
		stopOnSignals(() => Promise.allSettled([...live].map((stack) => stack.stop())), { log });
	}
	watchdog ??= setTimeout(() => {
		log(`watchdog: still running after ${TIMEOUT_MS} ms; stopping everything`);
		void Promise.allSettled([...live].map((stack) => stack.stop())).finally(() => process.exit(1));
	}, TIMEOUT_MS);
	watchdog.unref();
}

/** Every process of a stack that was ever started: sandbox, n8n's processes, PostgreSQL and Redis. */
function processesOf(stack) {
	return [
		stack.sandbox.service,
		...stack.n8n.started,
		stack.queue?.postgres.service,
		stack.queue?.redis.service,
	].filter(Boolean);
}

/** Under the contract proxy: the report of every exchange of this file's stacks, and no violation among them. */
function checkContract(stacks) {
	const exchanges = stacks.flatMap((started) => started.contract?.exchanges ?? []);
	if (!stacks.some((started) => started.contract)) return;
	const file = join(REPORT_DIR, `e2e-${basename(process.argv[1] ?? 'run', '.mjs')}.json`);
	const { summary, failed, lines } = writeReport(file, exchanges, {
		minValidated: minValidated('e2e'),
	});
	log(`contract proxy (Prism): ${JSON.stringify(summary)}; report ${file}`);
	assert.equal(failed, false, `the contract proxy's run fails:\n${lines.join('\n')}`);
}

/**
 * Registers `before`/`after` hooks (in the enclosing `describe`, or the file) that start a headless stack in a
 * temporary folder and stop it; returns helpers bound to it. `queue`: as startStack's option. `sandboxArgs`: more
 * sandbox options after the stack's own (a later one wins), e.g. `['--webhook-max-attempts', '3']`. `webhookUrl`:
 * the base URL n8n's triggers register (startStack's option), or a function giving it when the stack starts.
 * Without sandboxArgs and webhookUrl, and where e2e/run.mjs started a shared stack of the mode, the block attaches
 * to that one instead (support/shared-stack.mjs); `own: true` keeps a stack of its own all the same.
 */
export function useStack({ queue = false, sandboxArgs = [], webhookUrl, own = false } = {}) {
	armWatchdog();
	const descriptor = process.env[sharedStackVariable(queue)];
	if (descriptor && !own && sandboxArgs.length === 0 && webhookUrl === undefined)
		return useSharedStack(descriptor, { queue });
	const dir = mkdtempSync(join(tmpdir(), queue ? 'multichannel-e2e-queue-' : 'multichannel-e2e-'));
	let stack;
	/** Every stack started in `dir` (a test may stop the stack and start it again there). */
	const stacks = [];

	async function start({ build } = {}) {
		const since = Date.now();
		stack = await startHeadlessStack({
			dir,
			log,
			queue,
			sandboxArgs: [...E2E_SANDBOX_ARGS, ...sandboxArgs],
			webhookUrl: typeof webhookUrl === 'function' ? webhookUrl() : webhookUrl,
			build,
		});
		stacks.push(stack);
		live.add(stack);
		reportBoot({ queue, seconds: (Date.now() - since) / 1000 });
		log(
			`n8n ${stack.n8n.url} (webhooks ${stack.n8n.webhookUrl}), sandbox ${stack.sandbox.baseUrl}; timings ${JSON.stringify(stack.timings)}`,
		);
	}
	async function stop() {
		await stack?.stop();
		live.delete(stack);
	}

	before(() => start(), { timeout: TIMEOUT_MS });

	after(async () => {
		await stop();
		if (live.size === 0) clearTimeout(watchdog);
		for (const service of stacks.flatMap(processesOf)) {
			assert.equal(service.groupAlive, false, `no process of ${service.name}'s group is left`);
		}
		checkContract(stacks);
		const folders = [dir, ...stacks.map((started) => started.queue?.postgres.dataDir)];
		const kept = [...new Set(folders.filter(Boolean))];
		if (process.env.E2E_KEEP === '1') log(`kept ${kept.join(', ')}`);
		else for (const folder of kept) rmSync(folder, { recursive: true, force: true });
	});

	return helpers(() => stack, {
		/**
		 * Stops the stack and starts it again in the same folder, on new free ports and with the package built
		 * before (as `npm start` run again).
		 */
		async restartStack() {
			await stop();
			await start({ build: false });
		},
	});
}

/** useStack on the shared stack of the mode: attached before the tests, its workflows unpublished after them. */
function useSharedStack(descriptor, { queue }) {
	const label = `${basename(process.argv[1] ?? 'e2e', '.test.mjs')}${queue ? ' queue' : ''}`;
	let stack;
	before(
		async () => {
			const since = Date.now();
			stack = await attachSharedStack(descriptor, { label });
			log(`${label}: on the shared stack, n8n ${stack.n8n.url}, instance ${stack.instance.id}`);
			reportBoot({ queue, shared: true, seconds: (Date.now() - since) / 1000 });
		},
		{ timeout: TIMEOUT_MS },
	);
	after(async () => {
		await stack?.stop();
		if (live.size === 0) clearTimeout(watchdog);
	});
	return helpers(() => stack, {
		restartStack: () => {
			throw new Error('restartStack on the shared stack: use useStack({ own: true })');
		},
	});
}

/** The helpers a test uses, bound to the stack `current()` gives (it changes when a test restarts it). */
function helpers(current, { restartStack }) {
	const api = (...args) => current().n8n.client.api(...args);
	const sandbox = (key) => (method, path, body, expect) =>
		sandboxCall(current().sandbox.baseUrl, current().sandbox.keys[key], method, path, body, expect);
	const ctx = {
		/** The stack's folder: its sandbox's data file is `sandbox-state.json` there. */
		get dir() {
			return current().dir;
		},
		get stack() {
			return current();
		},
		restartStack,
		api,
		workspace: sandbox('workspace'),
		shortLinks: sandbox('shortLink'),
		automation: sandbox('automation'),

		/** Executions of a workflow, newest first (every page). */
		executions: (workflowId, includeData = false) =>
			collectPages((cursor) =>
				api(
					'GET',
					`/executions?workflowId=${workflowId}&includeData=${includeData}&limit=100${cursor ? `&cursor=${cursor}` : ''}`,
				),
			),

		/**
		 * A workflow's executions with their data, newest first, once there are at least `atLeast`, all finished,
		 * and none changed for `quietMs` (time for one more to come, were there one).
		 */
		async settledExecutions(workflowId, atLeast, { quietMs = 3_000, timeoutMs = 90_000 } = {}) {
			let previous = '';
			let stableSince = Date.now();
			await eventually(
				`${atLeast} finished executions`,
				async () => {
					const executions = await ctx.executions(workflowId);
					const seen = executions.map((execution) => `${execution.id}:${execution.status}`).join();
					if (seen !== previous) [previous, stableSince] = [seen, Date.now()];
					return (
						executions.length >= atLeast &&
						executions.every((execution) => FINISHED.has(execution.status)) &&
						Date.now() - stableSince >= quietMs
					);
				},
				timeoutMs,
			);
			return await ctx.executions(workflowId, true);
		},

		/** Activates (publishes) a workflow through the public API. */
		activate: (workflowId) => api('POST', `/workflows/${workflowId}/activate`),
		deactivate: (workflowId) => api('POST', `/workflows/${workflowId}/deactivate`),

		/** POSTs JSON to a production webhook URL, retrying while n8n is still registering it (404). */
		postToWebhook: (path, body) =>
			eventually(`the webhook ${path} to answer`, async () => {
				const response = await fetch(`${current().n8n.webhookUrl}/webhook/${path}`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify(body),
					signal: AbortSignal.timeout(60_000),
				});
				return response.status !== 404 && { status: response.status, text: await response.text() };
			}),

		/**
		 * Creates and activates a workflow of e2e/workflows/; `change` may adapt it first. Every webhook node gets a
		 * webhook id of its own, so that a fixture can be created more than once. Returns the created workflow and
		 * the path of its Webhook node, if it has one.
		 */
		async activateFixture(file, change = (workflow) => workflow) {
			const fixture = JSON.parse(
				readFileSync(new URL(`../workflows/${file}`, import.meta.url), 'utf8'),
			);
			for (const node of fixture.nodes) if (node.webhookId) node.webhookId = randomUUID();
			const created = await api(
				'POST',
				'/workflows',
				prepareWorkflow(change(fixture), { credentials: current().credentials }),
			);
			await ctx.activate(created.id);
			const path = fixture.nodes.find((node) => node.type === 'n8n-nodes-base.webhook')?.parameters
				.path;
			return { created, path };
		},

		/** The id of an example workflow that the stack imported. */
		example(file) {
			const found = [...current().examples.imported, ...current().examples.kept].find(
				(entry) => entry.file === file,
			);
			assert.ok(found, `example ${file} was imported`);
			return found.id;
		},

		/** The sandbox instance's outbound messages to `to` (of its latest 100), oldest first. */
		messagesTo: async (to) =>
			(
				await ctx.workspace('GET', `/api/v1/instances/${current().instance.id}/messages?limit=100`)
			).data
				.filter((message) => message.direction === 'outbound' && message.to === to)
				.sort((a, b) => a.createdAt.localeCompare(b.createdAt)),

		/** The sandbox instance's outbound message to `to`, once there. */
		outboundTo: (to) =>
			eventually(`a message to ${to} in the sandbox`, async () => {
				const page = await ctx.workspace(
					'GET',
					`/api/v1/instances/${current().instance.id}/messages?limit=100`,
				);
				return page.data.find((message) => message.direction === 'outbound' && message.to === to);
			}),
	};
	return ctx;
}
