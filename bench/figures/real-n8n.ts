/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the benchmark runs in plain Node, never inside n8n (process: exitCode, env) */
/**
 * Signed deliveries into a real n8n (bench/n8n-deliveries.ts), the trigger against n8n's Webhook node, in one
 * process or in queue mode. Skipped when `npm run setup:n8n` has not installed n8n.
 */
import { millis, perSecond, ratio, seconds } from '../lib';
import { n8nDeliveries, n8nRuntime, type DeliveryRun } from '../n8n-deliveries';
import { log, type Bench } from '../processes';
import { verdict } from '../report';

export async function realN8n({ options, report, measure }: Bench, queue: boolean) {
	const { n8nDeliveries: count, concurrency, repeat } = options;
	const { version, missing } = await n8nRuntime();
	const mode = queue
		? 'queue mode (main, webhook process, worker; PostgreSQL, Redis)'
		: 'one process (SQLite)';
	const figure = `real n8n ${version}, ${mode}: signed deliveries/s into Multichannel Automation Trigger → No Operation (${count} deliveries, ${concurrency} at a time; wall time until all answered)`;
	if (missing) {
		report.row(figure, `skipped: ${missing}`);
		return;
	}
	const warmup = Math.min(50, count);
	const result = await n8nDeliveries({
		queue,
		deliveries: count,
		concurrency,
		warmup,
		repeat,
		send: async (job) => await measure('sendDeliveries', job),
		log,
	}).catch((error: Error) => {
		// Lost or doubled deliveries, or a stack that failed: no figure, the other rows still print.
		process.exitCode = 1;
		log(`bench: ${error.stack ?? String(error)}`);
		report.row(figure, `no figure: ${error.message.split('\n')[0]}`);
		return undefined;
	});
	if (!result) return;
	const cell = (run: DeliveryRun) =>
		`${perSecond(run.count / (run.wallMs / 1000))} (${seconds(run.wallMs)}; last execution done at ${seconds(run.lastStoppedAt - run.startedAt)})`;
	const slower = result.trigger.wallMs / result.webhook.wallMs;
	report.row(
		figure,
		cell(result.trigger),
		`n8n's Webhook node → No Operation, the same POSTs: ${cell(result.webhook)}`,
		ratio(slower),
		verdict(slower <= 1.25, '≤ 1.25×'),
	);
	const answering = queue ? 'the webhook process' : 'n8n';
	// CPU times come from /proc (Linux).
	if (Number.isFinite(result.trigger.leastCpuMs) && Number.isFinite(result.webhook.leastCpuMs)) {
		report.row(
			`real n8n, ${queue ? 'queue mode' : 'one process'}: CPU time of ${answering} per delivery (all its threads, while the timed deliveries were answered; least of ${repeat})`,
			millis(result.trigger.leastCpuMs),
			`n8n's Webhook node: ${millis(result.webhook.leastCpuMs)}`,
			ratio(result.trigger.leastCpuMs / result.webhook.leastCpuMs),
		);
	}
	report.note(
		`Real n8n, ${queue ? 'queue mode' : 'one process'}: both workflows active in the same n8n with the same settings (every execution saved), the same signed \`automation.order_paid\` events and headers to each after ${warmup} to warm up; after each run n8n's public API counted exactly ${count + warmup} more successful executions of that workflow, one per delivery (${repeat * (count + warmup)} of each in all). The trigger checks each signature and claims each event id at the stack's sandbox (no added latency, no rate limit). n8n's expression engine: ${process.env.N8N_EXPRESSION_ENGINE ?? 'its default (vm)'}.`,
	);
}
