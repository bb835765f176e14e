/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the benchmark runs in plain Node, never inside n8n (process: exitCode, env) */
/**
 * Signed deliveries into a real n8n (bench/n8n-deliveries.ts), the trigger against n8n's Webhook node, in one
 * process or in queue mode, under each expression-engine setting; and a burst through the sandbox. Skipped when
 * `npm run setup:n8n` has not installed n8n. CPU time per delivery is the figure compared: wall times move with
 * whatever else the machine runs.
 */
import { millis, perSecond, ratio, seconds } from '../lib';
import type { BurstResult } from '../n8n-burst';
import { n8nDeliveries, n8nRuntime, type DeliveryRun, type SettingResult } from '../n8n-deliveries';
import { log, type Bench } from '../processes';
import type { Report } from '../report';
import { verdict } from '../report';

/** CPU per delivery, with the isolates and the rate beside it. */
function cell(run: DeliveryRun | undefined): string {
	if (!run) return 'not measured';
	const rate = perSecond(run.count / (run.wallMs / 1000));
	return `${millis(run.cpuMsPerDelivery ?? NaN)} CPU, ${run.isolates.toFixed(2)} isolates (${rate})`;
}

const cpuRatio = (ours?: DeliveryRun, theirs?: DeliveryRun) =>
	(ours?.cpuMsPerDelivery ?? NaN) / (theirs?.cpuMsPerDelivery ?? NaN);

function burstCell(result: BurstResult): string {
	const failed = Object.entries(result.failedAttempts)
		.map(([status, count]) => `${count} × ${status === 'timeout' ? 'no answer in 10 s' : status}`)
		.join(', ');
	const all = result.answered === result.events;
	return (
		`${result.deliveredAgain} of ${result.events} delivered again, ${result.afterTimeout} of them after no answer within 10 s` +
		` (failed attempts: ${failed || 'none'}); first attempts ${seconds(result.firstAttemptMedianMs)} median,` +
		` ${seconds(result.firstAttemptMaxMs)} at most; ${all ? 'all' : `${result.answered} of ${result.events}`} answered 2xx after ${seconds(result.allAnsweredMs)};` +
		` ${result.executions} executions, ${result.ranTwice} events run twice, ${result.notRun} not run${all ? '' : ' yet'}`
	);
}

function rows(
	report: Report,
	where: string,
	settings: Record<'default' | 'skipOff' | 'lazy', SettingResult>,
) {
	const { default: plain, skipOff, lazy } = settings;
	const fair = cpuRatio(skipOff.trigger, skipOff.webhook);
	report.row(
		`${where}, default engine with \`N8N_EXPRESSION_ENGINE_ALLOW_WEBHOOK_ISOLATE_SKIP=false\`: CPU per delivery, trigger (v2) against n8n's Webhook node (the fair baseline)`,
		cell(skipOff.trigger),
		`Webhook node, skip off: ${cell(skipOff.webhook)}`,
		ratio(fair),
		verdict(fair <= 1.15, '≤ 1.15×'),
	);
	report.row(
		`${where}, n8n's defaults (skip on): the same`,
		cell(plain.trigger),
		`Webhook node, skip on: ${cell(plain.webhook)}`,
		ratio(cpuRatio(plain.trigger, plain.webhook)),
	);
	const lazyRatio = cpuRatio(lazy.trigger, lazy.webhook);
	report.row(
		`${where}, \`N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true\`: the same; a trigger saved at version 1 beside it`,
		`v2: ${cell(lazy.trigger)}; v1: ${cell(lazy.triggerV1)}`,
		`Webhook node: ${cell(lazy.webhook)}`,
		`${ratio(lazyRatio)} (v1: ${ratio(cpuRatio(lazy.triggerV1, lazy.webhook))})`,
		verdict(lazyRatio <= 1.25, '≤ 1.25×'),
	);
}

export async function realN8n({ options, report, measure }: Bench, queue: boolean) {
	const { n8nDeliveries: count, concurrency, repeat, burst } = options;
	const { version, missing } = await n8nRuntime();
	const where = `real n8n ${version}, ${queue ? 'queue mode' : 'one process'}`;
	const figure = `${where}: signed deliveries (${count}, ${concurrency} at a time)`;
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
		burst,
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
	rows(report, where, result.settings);
	if (result.burst) {
		report.row(
			`${where}, n8n's defaults: a burst of ${result.burst.events} events published at once at the sandbox, delivered to the trigger (v2) as the service does (10 s timeout, redelivery)`,
			burstCell(result.burst),
			'',
			'',
			verdict(result.burst.ranTwice === 0 && result.burst.notRun === 0, 'each event runs once'),
		);
	}
	const answering = queue ? 'the webhook process' : 'n8n (which runs the executions too)';
	report.note(
		`${where}: the workflows active in the same n8n with the same settings (every execution saved), restarted for each engine setting; the same signed \`automation.order_paid\` events and headers to each after ${warmup} to warm up; after each run n8n's public API counted exactly ${count + warmup} more successful executions of that workflow, one per delivery. CPU: all threads of ${answering} while the timed deliveries were answered (least of ${repeat}). Isolates: n8n's \`n8n_expression_pool_acquired_total\` in ${answering}, per delivery. The trigger checks each signature and claims each event id at the stack's sandbox (no added latency, no rate limit). \`N8N_EXPRESSION_ENGINE\`: ${process.env.N8N_EXPRESSION_ENGINE ?? 'its default (vm)'}.`,
	);
}
