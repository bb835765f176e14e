/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the benchmark runs in plain Node, never inside n8n (node:os: the CPU it ran on; process: stdout, exit) */
/**
 * `npm run bench`: the package against its baselines, side by side, in one run, against the sandbox on
 * loopback with a fixed latency per request. Prints a Markdown table: each figure, its baseline, the ratio and
 * the goal it is held to. `npm run bench -- --help` lists the options (bench/options.ts).
 *
 * One file per figure in figures/. The sandbox runs in a process of its own (bench/sandbox-host.ts) and every
 * measurement in a fresh one (bench/measure.ts), so neither shares an event loop or a heap with what is
 * measured. Package weight is read from `dist/` as it is: run `npm run build` first. `--profile DIR` writes a
 * V8 CPU profile of each measurement process into DIR (open them in Chrome DevTools or speedscope). `n8n` and
 * `n8nQueue` deliver to a real n8n, installed by `npm run setup:n8n`; without it they are skipped.
 */
import { cpus } from 'node:os';

import { backlogDrain } from './figures/backlog-drain';
import { bulkSend } from './figures/bulk-send';
import { campaign } from './figures/campaign';
import { gathering } from './figures/gathering';
import { packageWeight } from './figures/package-weight';
import { realN8n } from './figures/real-n8n';
import { returnAll } from './figures/return-all';
import { storeScale } from './figures/store-scale';
import { storedMessages } from './figures/stored-messages';
import { trigger } from './figures/trigger';
import { viralLink } from './figures/viral-link';
import { seconds } from './lib';
import { readOptions, USAGE, type Figure } from './options';
import { log, measurer, withHost, type Bench } from './processes';
import { newReport } from './report';

async function main() {
	const options = readOptions();
	if (options.help) {
		process.stdout.write(USAGE);
		return;
	}
	const started = Date.now();
	const report = newReport();
	const bench: Bench = { options, report, ...measurer(options) };
	const wanted = (figure: Figure) => options.figures.includes(figure);

	if (wanted('bulk') || wanted('returnAll') || wanted('trigger') || wanted('campaign')) {
		await withHost(options, async (host) => {
			if (wanted('bulk')) await bulkSend(bench, host);
			if (wanted('returnAll')) await returnAll(bench, host);
			if (wanted('trigger')) await trigger(bench, host);
			if (wanted('campaign')) await campaign(bench, host);
		});
	}
	if (wanted('store')) await storedMessages(bench);
	if (wanted('gather')) await gathering(bench);
	if (wanted('storeScale')) await storeScale(bench);
	if (wanted('n8n')) await realN8n(bench, false);
	if (wanted('n8nQueue')) await realN8n(bench, true);
	if (wanted('viral')) await viralLink(bench, false);
	if (wanted('viralQueue')) await viralLink(bench, true);
	if (wanted('drain')) await backlogDrain(bench);
	if (wanted('weight')) {
		log('package weight…');
		packageWeight(report);
	}

	const { items, concurrency, contacts, deliveries, n8nDeliveries, repeat } = options;
	const cpu = cpus();
	process.stdout.write(
		[
			`Benchmark: sandbox on loopback, ${options.latencyMs} ms latency per request, rate limit off; ${items} items, ` +
				`concurrency ${concurrency}, ${contacts.toLocaleString('en-US')} contacts, ${deliveries} deliveries (${n8nDeliveries} into n8n), best of ${repeat}.`,
			`Node ${process.version}, ${cpu.length} × ${cpu[0]?.model ?? 'CPU'}; ${new Date().toISOString()}.`,
			'',
			report.table(),
			'',
			...report.notes.map((note) => `- ${note}`),
			`- Took ${seconds(Date.now() - started)} in all.`,
			'',
		].join('\n'),
	);
}

main().catch((error: Error) => {
	process.stderr.write(`bench: ${error.stack ?? String(error)}\n`);
	process.exit(1);
});
