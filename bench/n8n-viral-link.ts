/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the benchmark runs in plain Node, never inside n8n */
/**
 * A viral link in a real n8n: N clicks on one short link within T seconds, each a GET of the sandbox's own short
 * URL (loopback, paced evenly), while a Short Link Trigger (link.clicked, that link) → No Operation workflow is
 * active. Run once with the trigger's Batch Events on and once with it off, in one process or in queue mode.
 *
 * Counted: the clicks in n8n's executions (each output item's event id; twice is an error in the figure), the
 * executions, the sandbox's deliveries of the webhook and how many went more than once, the CPU time of every
 * n8n process from the first click until the last click ran (or the observation ended), and how long after the
 * last redirect the last click ran. Without batching n8n may not keep up: after `observeSeconds` past the last
 * click the figure says how far it got (that is the baseline a user would otherwise meet).
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

import { Agent, request } from 'undici';

import { stackModule, type Stack } from '../dev/stack/modules';
import { processCpuMs } from './lib';

const TRIGGER_NAME = 'Short Link Trigger';
const COUNTRIES = ['US', 'DE', 'BR', 'IN', 'GB', 'FR', 'NG', 'ID'];
const BROWSER =
	'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';

export interface ViralLinkRun {
	clicks: number;
	/** From the first to the last redirect answered, ms. */
	clickingMs: number;
	/** Distinct clicks found in n8n's successful executions, and clicks found in more than one item. */
	counted: number;
	countedTwice: number;
	executions: number;
	/** The webhook's deliveries at the sandbox, those sent more than once, and failed attempts by status. */
	deliveries: number;
	deliveredAgain: number;
	failedAttempts: Record<string, number>;
	/** CPU of every n8n process from the first click to the end of the wait, per click run and on average in cores. */
	cpuMsPerClick: number;
	cores: number;
	/** From the last redirect until the last click ran (every click run), or undefined when they had not all run. */
	lastRunAfterMs?: number;
	observedMs: number;
	/** Times n8n's API did not answer while counting (an n8n swamped by deliveries). */
	apiFailures: number;
}

export interface ViralLinkOptions {
	clicks: number;
	seconds: number;
	/** How long to wait after the last click for every click to run. */
	observeSeconds: number;
	/** The Short Link Trigger's options (Batch Events on or off), as its node parameters take them. */
	triggerOptions: Record<string, unknown>;
	log(text: string): void;
}

type Item = { json?: { id?: unknown; type?: unknown } };
interface Execution {
	id: string;
	status: string;
	stoppedAt: string | null;
	data?: {
		resultData?: {
			runData?: Record<string, Array<{ data?: { main?: Item[][] } }>>;
		};
	};
}

const allPids = (stack: Stack) => stack.n8n.services.map((service) => service.child.pid);

/** The workflow, active, and the trigger's webhook at the sandbox (from the workflow's static data). */
async function activate(stack: Stack, linkId: string, triggerOptions: Record<string, unknown>) {
	const { client } = stack.n8n;
	const noOp = {
		id: randomUUID(),
		name: 'No Operation',
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
	};
	const { id } = (await client.api('POST', '/workflows', {
		name: `bench: viral link ${JSON.stringify(triggerOptions)}`,
		settings: { executionOrder: 'v1', saveDataSuccessExecution: 'all' },
		nodes: [
			{
				id: randomUUID(),
				webhookId: randomUUID(),
				name: TRIGGER_NAME,
				type: 'n8n-nodes-multichannel.multichannelShortLinkTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: { events: ['link.clicked'], linkIds: [linkId], options: triggerOptions },
				credentials: {
					multichannelShortLinkApi: stack.credentials.multichannelShortLinkApi,
				},
			},
			{ ...noOp, position: [220, 0], parameters: {} },
		],
		connections: { [TRIGGER_NAME]: { main: [[{ node: noOp.name, type: 'main', index: 0 }]] } },
	})) as { id: string };
	await client.api('POST', `/workflows/${id}/activate`);
	const deadline = Date.now() + 30_000;
	for (;;) {
		const { staticData } = (await client.api('GET', `/workflows/${id}`)) as {
			staticData?: Record<string, { webhooks?: Record<string, { webhookId: string }> }> | null;
		};
		const webhooks = Object.values(staticData?.[`node:${TRIGGER_NAME}`]?.webhooks ?? {});
		if (webhooks.length === 1) return { workflowId: id, webhookId: webhooks[0].webhookId };
		if (Date.now() > deadline) throw new Error('The trigger registered no webhook in 30 s');
		await sleep(250);
	}
}

/** `clicks` GETs of the short URL, paced evenly over `seconds`, at most 50 open at once. */
async function click(shortUrl: string, clicks: number, seconds: number) {
	const agent = new Agent({ connections: 50 });
	const started = Date.now();
	let next = 0;
	let last = started;
	const worker = async () => {
		for (let n = next++; n < clicks; n = next++) {
			const due = started + (n * seconds * 1000) / clicks;
			if (due > Date.now()) await sleep(due - Date.now());
			const response = await request(shortUrl, {
				dispatcher: agent,
				headers: { 'user-agent': BROWSER, 'cf-ipcountry': COUNTRIES[n % COUNTRIES.length] },
			});
			await response.body.dump();
			if (response.statusCode !== 302) throw new Error(`A click got ${response.statusCode}`);
			last = Math.max(last, Date.now());
		}
	};
	await Promise.all(Array.from({ length: 50 }, worker));
	await agent.close();
	return { started, lastRedirect: last };
}

/** The clicks in the workflow's successful executions: event ids per item of the trigger's output. */
async function countClicks(stack: Stack, workflowId: string) {
	const executions = (await stack.n8n.client.listAll(
		`/executions?workflowId=${workflowId}&includeData=true`,
	)) as Execution[];
	const seen = new Map<string, number>();
	for (const execution of executions) {
		if (execution.status !== 'success') continue;
		const items = execution.data?.resultData?.runData?.[TRIGGER_NAME]?.[0]?.data?.main?.[0] ?? [];
		for (const item of items) {
			const id = String(item.json?.id);
			seen.set(id, (seen.get(id) ?? 0) + 1);
		}
	}
	return {
		executions: executions.length,
		counted: seen.size,
		countedTwice: [...seen.values()].filter((count) => count > 1).length,
	};
}

/**
 * Waits until every click ran (counted by executions' stop times, cheap) or the observation ended. An n8n too busy
 * to answer its own API (without batching it may be) is asked again; `apiFailures` counts those times.
 */
async function waitForRuns(
	stack: Stack,
	workflowId: string,
	clicks: number,
	until: number,
	apiFailures: { count: number },
) {
	const { client } = stack.n8n;
	for (;;) {
		const executions = (await client
			.listAll(`/executions?workflowId=${workflowId}`)
			.catch(() => undefined)) as Execution[] | undefined;
		if (!executions) {
			apiFailures.count++;
			if (Date.now() > until) return undefined;
			await sleep(5000);
			continue;
		}
		const settled = executions.every((execution) => execution.stoppedAt !== null);
		// Reading every execution's data is dear: only when few (batches) or enough to hold every click.
		const worthReading = settled && (executions.length <= 1000 || executions.length >= clicks);
		const counted = worthReading
			? ((await countClicks(stack, workflowId).catch(() => undefined))?.counted ?? 0)
			: 0;
		if (counted >= clicks) {
			return executions.reduce(
				(latest, { stoppedAt }) => Math.max(latest, Date.parse(stoppedAt!)),
				0,
			);
		}
		if (Date.now() > until) return undefined;
		await sleep(settled ? 2000 : 5000);
	}
}

/** One case: the workflow active, the clicks, the wait, the counts; the workflow deactivated after. */
export async function viralLinkRun(stack: Stack, options: ViralLinkOptions): Promise<ViralLinkRun> {
	const { sandboxCall, collectPages } = await stackModule();
	const { baseUrl, keys } = stack.sandbox;
	const call = (method: string, path: string, body?: unknown) =>
		sandboxCall(baseUrl, keys.shortLink, method, path, body);
	const link = (await call('POST', '/api/v1/links', {
		url: 'https://example.com/campaign',
		title: `bench viral ${Date.now()}`,
	})) as { id: string; shortUrl: string };
	const { workflowId, webhookId } = await activate(stack, link.id, options.triggerOptions);

	options.log(`viral link: ${options.clicks} clicks in ${options.seconds} s on ${link.shortUrl}…`);
	const cpuBefore = processCpuMs(allPids(stack)) ?? NaN;
	const { started, lastRedirect } = await click(link.shortUrl, options.clicks, options.seconds);
	options.log(
		`viral link: clicked in ${((lastRedirect - started) / 1000).toFixed(1)} s; waiting for n8n…`,
	);
	const apiFailures = { count: 0 };
	const until = lastRedirect + options.observeSeconds * 1000;
	const lastRun = await waitForRuns(stack, workflowId, options.clicks, until, apiFailures);
	const observedMs = Date.now() - started;
	const cpuMs = (processCpuMs(allPids(stack)) ?? NaN) - cpuBefore;

	// Counted as they stand; an n8n that cannot answer is given another minute.
	let counts: Awaited<ReturnType<typeof countClicks>> | undefined;
	for (const deadline = Date.now() + 60_000; !counts && Date.now() < deadline; ) {
		counts = await countClicks(stack, workflowId).catch(() => undefined);
		if (!counts) {
			apiFailures.count++;
			await sleep(5000);
		}
	}
	counts ??= { executions: NaN, counted: 0, countedTwice: 0 };
	const deliveries = (await collectPages((cursor?: string) =>
		call(
			'GET',
			`/api/v1/link-webhooks/${webhookId}/deliveries?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
		),
	)) as Array<{ attempts: Array<{ responseStatus: number | null }> }>;
	const failedAttempts: Record<string, number> = {};
	for (const attempt of deliveries.flatMap((delivery) => delivery.attempts)) {
		if (attempt.responseStatus !== null && attempt.responseStatus < 300) continue;
		const key = attempt.responseStatus === null ? 'no answer' : String(attempt.responseStatus);
		failedAttempts[key] = (failedAttempts[key] ?? 0) + 1;
	}
	await stack.n8n.client
		.api('POST', `/workflows/${workflowId}/deactivate`)
		.catch(() => apiFailures.count++);
	return {
		apiFailures: apiFailures.count,
		clicks: options.clicks,
		clickingMs: lastRedirect - started,
		...counts,
		deliveries: deliveries.length,
		deliveredAgain: deliveries.filter((delivery) => delivery.attempts.length > 1).length,
		failedAttempts,
		cpuMsPerClick: cpuMs / Math.max(1, counts.counted),
		cores: cpuMs / observedMs,
		lastRunAfterMs: lastRun === undefined ? undefined : lastRun - lastRedirect,
		observedMs,
	};
}
