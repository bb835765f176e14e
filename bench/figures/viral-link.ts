/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the benchmark runs in plain Node, never inside n8n (process: exitCode) */
/**
 * A viral link (bench/n8n-viral-link.ts) in a real n8n, one process or queue mode: the same clicks with the Short
 * Link Trigger's Batch Events on and off, side by side. Skipped when `npm run setup:n8n` has not installed n8n.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { stackModule, type Stack } from '../../dev/stack/modules';
import { seconds } from '../lib';
import { n8nRuntime } from '../n8n-deliveries';
import { viralLinkRun, type ViralLinkRun } from '../n8n-viral-link';
import { log, type Bench } from '../processes';
import { lessPerUnit, verdict } from '../report';

function cell(run: ViralLinkRun | undefined): string {
	if (!run) return 'not measured';
	const failed = Object.entries(run.failedAttempts)
		.map(([status, count]) => `${count} × ${status}`)
		.join(', ');
	const last =
		run.lastRunAfterMs === undefined
			? `**${run.clicks - run.counted} clicks not run ${seconds(run.observedMs)} after the first**`
			: `last click run ${seconds(run.lastRunAfterMs)} after the last redirect`;
	return (
		`${run.counted} of ${run.clicks} clicks run (${run.countedTwice} twice) in ${run.executions} executions; ` +
		`${run.deliveries} deliveries, ${run.deliveredAgain} delivered again (failed attempts: ${failed || 'none'}); ` +
		(run.apiFailures ? `n8n's API did not answer ${run.apiFailures} times; ` : '') +
		`${run.cpuMsPerClick.toFixed(1)} ms n8n CPU per click run (${seconds(run.cpuMsPerClick * run.counted)} in all), ${run.cores.toFixed(2)} cores on average; ${last}`
	);
}

const met = (run: ViralLinkRun | undefined) =>
	!!run &&
	run.counted === run.clicks &&
	run.countedTwice === 0 &&
	run.deliveredAgain === 0 &&
	run.cores < 1 &&
	run.lastRunAfterMs !== undefined &&
	run.lastRunAfterMs <= 15_000;

/** How much less CPU a click cost batched, or why there is nothing to compare. */
function cpuRatio(batched: ViralLinkRun | undefined, single: ViralLinkRun | undefined): string {
	if (!batched || !single) return '';
	const side = (name: string, run: ViralLinkRun) => ({
		name,
		ran: run.counted,
		costPerUnit: run.cpuMsPerClick,
	});
	return lessPerUnit('CPU', 'click', side('batched', batched), side('unbatched', single));
}

export async function viralLink({ options, report }: Bench, queue: boolean) {
	const { viralClicks: clicks, viralSeconds, viralObserve, viralBatch } = options;
	const { version, missing } = await n8nRuntime();
	const where = `real n8n ${version}, ${queue ? 'queue mode' : 'one process'}`;
	const figure = `${where}: a viral link, ${clicks.toLocaleString('en-US')} clicks within ${viralSeconds} s through the sandbox's redirect, Short Link Trigger → No Operation`;
	if (missing) {
		report.row(figure, `skipped: ${missing}`);
		return;
	}
	const dir = mkdtempSync(path.join(tmpdir(), 'multichannel-bench-viral-'));
	const { startHeadlessStack } = await stackModule();
	let stack: Stack | undefined;
	const runs: { batched?: ViralLinkRun; single?: ViralLinkRun } = {};
	try {
		const sandboxArgs = ['--rate-limit', '0'];
		stack = await startHeadlessStack({ dir, log, sandboxArgs, ...(queue ? { queue } : {}) });
		const common = { clicks, seconds: viralSeconds, observeSeconds: viralObserve, log };
		// Batched first: the unbatched run may leave a backlog behind it.
		runs.batched = await viralLinkRun(stack, {
			...common,
			triggerOptions: { batch: { settings: viralBatch } },
		});
		log(`viral link, batched: ${JSON.stringify(runs.batched)}`);
		runs.single = await viralLinkRun(stack, { ...common, triggerOptions: {} });
		log(`viral link, one delivery per click: ${JSON.stringify(runs.single)}`);
	} catch (error) {
		process.exitCode = 1;
		log(`bench: ${(error as Error).stack ?? String(error)}`);
	} finally {
		await stack?.stop();
		const database = stack?.queue?.postgres?.dataDir;
		if (database) rmSync(database, { recursive: true, force: true });
		if (runs.single) rmSync(dir, { recursive: true, force: true });
		else log(`viral link: kept ${dir} (n8n's and the sandbox's logs)`);
	}
	report.row(
		`${figure}: Batch Events ${viralBatch.maxEvents} / ${viralBatch.maxWaitSeconds} s, against one delivery per click`,
		cell(runs.batched),
		cell(runs.single),
		cpuRatio(runs.batched, runs.single),
		verdict(
			met(runs.batched),
			'batched: every click once, none delivered again, under one core, last click ≤ 15 s',
		),
	);
}
