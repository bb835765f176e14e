/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the benchmark runs in plain Node, never inside n8n */
/**
 * A burst into a real n8n as users meet it: N automation events published at once at the stack's sandbox, which
 * delivers each to the trigger's webhook as the service does (signed, a 10 s timeout, redelivered with backoff
 * until answered 2xx). Waits until the sandbox's delivery log shows every delivery answered, then reads from it
 * how many were delivered more than once and why, and from n8n's executions that every event ran exactly once.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import { stackModule, type Stack } from '../dev/stack/modules';

/** What the sandbox's delivery log says of one delivery. */
interface LoggedDelivery {
	eventId: string;
	eventType: string;
	status: string;
	attempts: Array<{ responseStatus: number | null; durationMs: number }>;
}

type Run = Array<{ data?: { main?: Array<Array<{ json?: { id?: unknown; type?: unknown } }>> } }>;
interface Execution {
	status: string;
	stoppedAt: string | null;
	data?: { resultData?: { runData?: Record<string, Run> } };
}

export interface BurstResult {
	events: number;
	/** Deliveries answered 2xx by the end, and when the last was (or when the wait ended). */
	answered: number;
	allAnsweredMs: number;
	/** Deliveries sent more than once, and of those, how many after an attempt that got no answer within 10 s. */
	deliveredAgain: number;
	afterTimeout: number;
	/** The attempts that were not answered 2xx, by status (`timeout`: no answer within 10 s). */
	failedAttempts: Record<string, number>;
	/** The first attempts' durations, median and slowest, in ms. */
	firstAttemptMedianMs: number;
	firstAttemptMaxMs: number;
	/** n8n's successful executions of the burst's events; events run more than once; events not run (yet). */
	executions: number;
	ranTwice: number;
	notRun: number;
}

export interface BurstTarget {
	workflowId: string;
	/** The trigger's webhook at the sandbox, and the name of its node in the workflow. */
	webhookId: string;
	nodeName: string;
}

const median = (values: number[]) =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const FINISHED = new Set(['success', 'error', 'crashed', 'canceled']);

/**
 * Publishes `events` events at once, waits until the sandbox had a 2xx answer for each (or `timeoutMs` passed:
 * the figure then says how far it got) and n8n's executions have settled, and checks each event against them.
 */
export async function burst(
	stack: Stack,
	target: BurstTarget,
	{ events, timeoutMs }: { events: number; timeoutMs: number },
): Promise<BurstResult> {
	const { sandboxCall, collectPages } = await stackModule();
	const { client } = stack.n8n;
	const { baseUrl, keys } = stack.sandbox;
	const call = (method: string, path: string, body?: unknown) =>
		sandboxCall(baseUrl, keys.automation, method, path, body);
	const name = `burst.${Date.now().toString(36)}`;
	const executions = async (data = false) =>
		(await client.listAll(
			`/executions?workflowId=${target.workflowId}${data ? '&includeData=true' : ''}`,
		)) as Execution[];
	const executionsBefore = (await executions()).length;

	const started = Date.now();
	await Promise.all(
		Array.from({ length: events }, (_, n) =>
			call('POST', '/api/v1/automation/events', { name, payload: { n } }),
		),
	);
	const deadline = started + timeoutMs;

	let deliveries: LoggedDelivery[] = [];
	for (;;) {
		const log = (await collectPages((cursor?: string) =>
			call(
				'GET',
				`/api/v1/automation/webhooks/${target.webhookId}/deliveries?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
			),
		)) as LoggedDelivery[];
		deliveries = log.filter((delivery) => delivery.eventType === `automation.${name}`);
		const answered = deliveries.filter((delivery) => delivery.status === 'succeeded').length;
		if (answered === events || Date.now() > deadline) break;
		await sleep(1000);
	}
	const allAnsweredMs = Date.now() - started;

	// Every delivery answered: executions still starting or running are those of the last answers.
	let last = '';
	let stableSince = Date.now();
	for (;;) {
		const now = await executions();
		const seen = now.map((execution) => `${execution.status}:${execution.stoppedAt}`).join();
		if (seen !== last) [last, stableSince] = [seen, Date.now()];
		const settled = now.every((execution) => FINISHED.has(execution.status));
		const stable = settled && Date.now() - stableSince > 3000;
		if (stable && (now.length >= executionsBefore + events || Date.now() > deadline)) break;
		if (Date.now() > deadline + 60_000) break;
		await sleep(1000);
	}
	const ran = (await executions(true)).flatMap((execution) => {
		const json =
			execution.data?.resultData?.runData?.[target.nodeName]?.[0]?.data?.main?.[0]?.[0]?.json;
		return json?.type === `automation.${name}` && execution.status === 'success'
			? [String(json.id)]
			: [];
	});
	return summary(deliveries, ran, allAnsweredMs);
}

function summary(deliveries: LoggedDelivery[], ran: string[], allAnsweredMs: number): BurstResult {
	const failedAttempts: Record<string, number> = {};
	for (const attempt of deliveries.flatMap((delivery) => delivery.attempts)) {
		if (attempt.responseStatus !== null && attempt.responseStatus < 300) continue;
		const key = attempt.responseStatus === null ? 'timeout' : String(attempt.responseStatus);
		failedAttempts[key] = (failedAttempts[key] ?? 0) + 1;
	}
	const again = deliveries.filter((delivery) => delivery.attempts.length > 1);
	const runs = new Map<string, number>();
	for (const id of ran) runs.set(id, (runs.get(id) ?? 0) + 1);
	const delivered = new Set(deliveries.map((delivery) => delivery.eventId));
	const first = deliveries.map((delivery) => delivery.attempts[0]?.durationMs ?? 0);
	return {
		events: deliveries.length,
		answered: deliveries.filter((delivery) => delivery.status === 'succeeded').length,
		allAnsweredMs,
		deliveredAgain: again.length,
		afterTimeout: again.filter((delivery) =>
			delivery.attempts.some((attempt) => attempt.responseStatus === null),
		).length,
		failedAttempts,
		firstAttemptMedianMs: median(first),
		firstAttemptMaxMs: Math.max(0, ...first),
		executions: ran.length,
		ranTwice: [...runs.values()].filter((count) => count > 1).length,
		notRun: [...delivered].filter((id) => !runs.has(id)).length,
	};
}
