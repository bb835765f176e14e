/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the benchmark runs in plain Node, never inside n8n: it starts its measurements as processes */
/**
 * `npm run bench`: the package against its baselines, side by side, in one run, against the sandbox on
 * loopback with a fixed latency per request (20 ms unless `--latency` says otherwise). Prints a Markdown
 * table: each figure, its baseline, the ratio and the goal it is held to.
 *
 *   ts-node --transpile-only bench/run.ts [--items 2000] [--contacts 50000] [--deliveries 5000]
 *                                         [--n8n-deliveries 300] [--concurrency 10] [--latency 20]
 *                                         [--repeat 1] [--profile DIR]
 *                                         [--only bulk,returnAll,trigger,n8n,n8nQueue,weight]
 *
 * The sandbox runs in a process of its own (bench/sandbox-host.ts) and every measurement in a fresh one
 * (bench/measure.ts), so neither shares an event loop or a heap with what is measured. Package weight
 * (bench/package-weight.ts) is read from `dist/` as it is: run `npm run build` first. `--profile DIR` writes a V8 CPU profile of each
 * measurement process into DIR (open them in Chrome DevTools or speedscope). `n8n` and `n8nQueue` deliver
 * to a real n8n (bench/n8n-deliveries.ts), installed by `npm run setup:n8n`; without it they are skipped.
 */
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';

import { ask, forkTs, megabytes, millis, perSecond, ratio, seconds } from './lib';
import type { Timing } from './measure';
import { n8nDeliveries, n8nRuntime, type DeliveryRun } from './n8n-deliveries';
import { packageWeight } from './package-weight';

/** The value of `--name value` or `--name=value`. */
function argument(name: string): string | undefined {
	const index = process.argv.indexOf(`--${name}`);
	if (index >= 0) return process.argv[index + 1];
	const joined = process.argv.find((arg) => arg.startsWith(`--${name}=`));
	return joined?.slice(name.length + 3);
}

function option(name: string, fallback: number): number {
	const text = argument(name);
	const value = text === undefined ? fallback : Number(text);
	if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} takes a number`);
	return value;
}

const ITEMS = option('items', 2000);
const CONTACTS = option('contacts', 50_000);
const DELIVERIES = option('deliveries', 5000);
const N8N_DELIVERIES = Math.max(1, option('n8n-deliveries', 300));
const CONCURRENCY = option('concurrency', 10);
const LATENCY_MS = option('latency', 20);
const REPEAT = Math.max(1, option('repeat', 1));
const WARMUP = Math.min(100, ITEMS);
const PROFILE = argument('profile');
const PROFILE_DIR = PROFILE === undefined ? undefined : path.resolve(PROFILE);
const PROFILE_ARGS = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];
const ONLY = argument('only')?.split(',');
const wanted = (part: string) => !ONLY || ONLY.includes(part);

interface Row {
	figure: string;
	value: string;
	baseline: string;
	ratio: string;
	goal: string;
}
const rows: Row[] = [];
const notes: string[] = [];
const log = (text: string) => process.stderr.write(`${text}\n`);

function row(figure: string, value: string, baseline = '', ratioText = '', goal = '') {
	rows.push({ figure, value, baseline, ratio: ratioText, goal });
}

function verdict(ok: boolean, goal: string): string {
	return `${goal} ${ok ? '✅ met' : '❌ missed'}`;
}

// ---------------------------------------------------------------------------------------------------------
// Processes

interface Host {
	process: ChildProcess;
	baseUrl: string;
	apiKey: string;
	senderId: string;
}

async function startHost(): Promise<Host> {
	const child = forkTs('sandbox-host.ts', [String(LATENCY_MS)], PROFILE_ARGS);
	const ready = await new Promise<Omit<Host, 'process'>>((resolve, reject) => {
		child.once('message', (message: Omit<Host, 'process'> & { kind: string }) => resolve(message));
		child.once('exit', (code) => reject(new Error(`The sandbox process exited (${code})`)));
	});
	return { process: child, ...ready };
}

/** A fresh bench/measure.ts process for `work`, ended cleanly after it. */
async function inProcess<T>(work: (child: ChildProcess) => Promise<T>): Promise<T> {
	const child = forkTs('measure.ts', [], ['--expose-gc', ...PROFILE_ARGS]);
	const exited = new Promise((resolve) => child.once('exit', resolve));
	try {
		return await work(child);
	} finally {
		await ask(child, { kind: 'exit' }).catch(() => undefined);
		await exited;
	}
}

/** Runs one job of bench/measure.ts in a fresh process. */
async function measure<T>(kind: string, job: Record<string, unknown> = {}): Promise<T> {
	return await inProcess(async (child) => await ask<T>(child, { kind, job }));
}

/** The best (least disturbed) of `REPEAT` runs. */
async function best(
	kind: string,
	job: Record<string, unknown>,
	check: (timing: Timing, tag: string) => Promise<void>,
) {
	const runs: Timing[] = [];
	for (let attempt = 0; attempt < REPEAT; attempt++) {
		const tag = `bench-${kind}-${String(job.concurrency ?? '')}-${Date.now()}-${attempt}`;
		const timing = await measure<Timing>(kind, { ...job, tag });
		await check(timing, tag);
		runs.push(timing);
	}
	return runs.reduce((a, b) => (b.wallMs < a.wallMs ? b : a));
}

// ---------------------------------------------------------------------------------------------------------
// Bulk send

async function bulkSend(host: Host) {
	const target = { baseUrl: host.baseUrl, apiKey: host.apiKey, instanceId: host.senderId };
	const check = async (timing: Timing, tag: string) => {
		const counted = await ask<{ total: number; distinct: number }>(host.process, {
			kind: 'countMessages',
			prefix: `${tag} `,
		});
		if (timing.count !== ITEMS || counted.total !== ITEMS || counted.distinct !== ITEMS) {
			throw new Error(
				`${tag}: ${timing.count} answers, ${counted.total} messages stored (${counted.distinct} distinct); expected ${ITEMS}`,
			);
		}
	};
	const run = async (kind: 'bulkNode' | 'bulkPlain' | 'bulkRaw', concurrency: number) => {
		log(`bulk send: ${kind}, ${ITEMS} items, concurrency ${concurrency}…`);
		return await best(kind, { ...target, items: ITEMS, concurrency, warmup: WARMUP }, check);
	};
	const node = await run('bulkNode', CONCURRENCY);
	const raw = await run('bulkRaw', CONCURRENCY);
	const plain = await run('bulkPlain', CONCURRENCY);
	const nodeSerial = await run('bulkNode', 1);
	const rawSerial = await run('bulkRaw', 1);

	const rate = (timing: Timing) => perSecond(timing.count / (timing.wallMs / 1000));
	const bulkRatio = node.wallMs / raw.wallMs;
	row(
		`bulk send: ${ITEMS} texts as ${ITEMS} items, concurrency ${CONCURRENCY} (wall time)`,
		`${seconds(node.wallMs)} (${rate(node)})`,
		`raw undici loop, ${CONCURRENCY} at a time: ${seconds(raw.wallMs)} (${rate(raw)})`,
		ratio(bulkRatio),
		verdict(bulkRatio <= 1.15, '≤ 1.15×'),
	);
	row(
		`bulk send, concurrency ${CONCURRENCY}: a minimal n8n node sending the same requests the common way (2 expressions + \`httpRequestWithAuthentication\` per item, the next item started as soon as one ends)`,
		`node: ${seconds(node.wallMs)}`,
		`minimal node: ${seconds(plain.wallMs)} (${rate(plain)}); vs raw loop ${ratio(plain.wallMs / raw.wallMs)}`,
		ratio(node.wallMs / plain.wallMs),
	);
	row(
		`bulk send: concurrency 1 (wall time)`,
		`${seconds(nodeSerial.wallMs)} (${rate(nodeSerial)})`,
		`raw undici loop, 1 at a time: ${seconds(rawSerial.wallMs)} (${rate(rawSerial)})`,
		ratio(nodeSerial.wallMs / rawSerial.wallMs),
	);
	const speedup = nodeSerial.wallMs / node.wallMs;
	row(
		`bulk send: speed-up of concurrency ${CONCURRENCY} over 1`,
		`${speedup.toFixed(1)}× faster`,
		`raw undici loop: ${(rawSerial.wallMs / raw.wallMs).toFixed(1)}× faster`,
		'',
		verdict(speedup >= 8, '≥ 8×'),
	);
	row(
		`bulk send: peak heap above start, concurrency ${CONCURRENCY}`,
		megabytes(node.peakHeapMb),
		`raw undici loop: ${megabytes(raw.peakHeapMb)}`,
		ratio(node.peakHeapMb / Math.max(raw.peakHeapMb, 1)),
	);
	notes.push(
		`Bulk send: every run was checked in the sandbox: ${ITEMS} answers and exactly ${ITEMS} distinct messages stored.`,
	);
	return { bulkRatio, speedup };
}

// ---------------------------------------------------------------------------------------------------------
// Return All

async function returnAll(host: Host) {
	log(`return all: seeding ${CONTACTS} contacts…`);
	const { instanceId } = await ask<{ instanceId: string }>(host.process, {
		kind: 'seedContacts',
		count: CONTACTS,
	});
	const target = { baseUrl: host.baseUrl, apiKey: host.apiKey, instanceId };
	const check = async (timing: Timing) => {
		if (timing.count !== CONTACTS)
			throw new Error(`Return All gave ${timing.count} contacts, expected ${CONTACTS}`);
	};
	log('return all: through the node…');
	const node = await best('returnAllNode', target, check);
	log('return all: raw cursor paging…');
	const raw = await best('returnAllRaw', target, check);
	const allRatio = node.wallMs / raw.wallMs;
	row(
		`Return All: ${CONTACTS.toLocaleString('en-US')} contacts, ${Math.ceil(CONTACTS / 100)} pages (wall time)`,
		seconds(node.wallMs),
		`raw cursor paging with undici: ${seconds(raw.wallMs)}`,
		ratio(allRatio),
		verdict(allRatio <= 1.3, '≤ 1.3×'),
	);
	row(
		'Return All: peak heap above start',
		megabytes(node.peakHeapMb),
		`raw cursor paging: ${megabytes(raw.peakHeapMb)}`,
		ratio(node.peakHeapMb / Math.max(raw.peakHeapMb, 1)),
	);
	row(
		'Return All: peak RSS above start',
		megabytes(node.peakRssMb),
		`raw cursor paging: ${megabytes(raw.peakRssMb)}`,
		ratio(node.peakRssMb / Math.max(raw.peakRssMb, 1)),
	);
	return { allRatio };
}

// ---------------------------------------------------------------------------------------------------------
// Trigger

async function trigger(host: Host) {
	log('trigger: signature verifications…');
	const result = await measure<{ verify: number; bare: number; payloadBytes: number }>(
		'signatures',
		{},
	);
	row(
		`trigger: signature verifications/s (\`verifySignature\`, ${result.payloadBytes}-byte delivery, 1 secret)`,
		perSecond(result.verify),
		`bare HMAC-SHA256 of the same bytes: ${perSecond(result.bare)}`,
		ratio(result.bare / result.verify),
	);

	// Deliveries: the receiver in one process, the sender (signed POSTs, CONCURRENCY at a time) in another.
	const warmup = Math.min(500, DELIVERIES);
	const deliveries = async (receiver: 'trigger' | 'bare') =>
		await inProcess(async (server) => {
			log(`trigger: ${DELIVERIES} deliveries to the ${receiver} receiver…`);
			const target = await ask<{ url: string; secret: string }>(server, {
				kind: 'deliveryReceiver',
				job: { receiver, baseUrl: host.baseUrl, apiKey: host.apiKey, warmup },
			});
			const timing = await measure<Timing>('sendDeliveries', {
				...target,
				count: DELIVERIES,
				concurrency: CONCURRENCY,
				warmup,
			});
			const { taken, cpuUsPerDelivery } = await ask<{ taken: number; cpuUsPerDelivery: number }>(
				server,
				{ kind: 'deliveryReceiverStop' },
			);
			if (taken !== DELIVERIES + warmup) {
				throw new Error(
					`The ${receiver} receiver took ${taken} deliveries of ${DELIVERIES + warmup}`,
				);
			}
			return { ...timing, cpuUsPerDelivery };
		});
	const node = await deliveries('trigger');
	const bare = await deliveries('bare');
	const rate = (timing: Timing) => timing.count / (timing.wallMs / 1000);
	row(
		`trigger: deliveries/s through the trigger's webhook handler (\`webhook()\` in n8n-core's WebhookContext; ${DELIVERIES} signed deliveries, ${CONCURRENCY} at a time)`,
		`${perSecond(rate(node))} (${seconds(node.wallMs)})`,
		`bare \`node:http\` receiver checking the HMAC: ${perSecond(rate(bare))} (${seconds(bare.wallMs)})`,
		ratio(rate(bare) / rate(node)),
	);
	row(
		"trigger: the webhook receiver's CPU time per delivery (its process, after the warm-up)",
		`${node.cpuUsPerDelivery.toFixed(0)} µs`,
		`bare \`node:http\` receiver: ${bare.cpuUsPerDelivery.toFixed(0)} µs`,
		ratio(node.cpuUsPerDelivery / bare.cpuUsPerDelivery),
	);
	notes.push(
		`Trigger: the Multichannel Trigger behind the tests' stand-in for n8n's webhook endpoint (dev/harness/triggers.ts), which answers once \`webhook()\` returns the item: the workflow n8n would then run is not part of the figure. Every delivery started exactly one execution (${DELIVERIES + warmup} with the warm-up), and the bare receiver accepted every signature.`,
	);
}

// ---------------------------------------------------------------------------------------------------------
// Deliveries into a real n8n

async function realN8n(queue: boolean) {
	const { version, missing } = await n8nRuntime();
	const mode = queue
		? 'queue mode (main, webhook process, worker; PostgreSQL, Redis)'
		: 'one process (SQLite)';
	const figure = `real n8n ${version}, ${mode}: signed deliveries/s into Multichannel Automation Trigger → No Operation (${N8N_DELIVERIES} deliveries, ${CONCURRENCY} at a time; wall time until all answered)`;
	if (missing) {
		row(figure, `skipped: ${missing}`);
		return;
	}
	const warmup = Math.min(50, N8N_DELIVERIES);
	const result = await n8nDeliveries({
		queue,
		deliveries: N8N_DELIVERIES,
		concurrency: CONCURRENCY,
		warmup,
		repeat: REPEAT,
		send: async (job) => await measure('sendDeliveries', job),
		log,
	}).catch((error: Error) => {
		// Lost or doubled deliveries, or a stack that failed: no figure, the other rows still print.
		process.exitCode = 1;
		log(`bench: ${error.stack ?? String(error)}`);
		row(figure, `no figure: ${error.message.split('\n')[0]}`);
		return undefined;
	});
	if (!result) return;
	const cell = (run: DeliveryRun) =>
		`${perSecond(run.count / (run.wallMs / 1000))} (${seconds(run.wallMs)}; last execution done at ${seconds(run.lastStoppedAt - run.startedAt)})`;
	const slower = result.trigger.wallMs / result.webhook.wallMs;
	row(
		figure,
		cell(result.trigger),
		`n8n's Webhook node → No Operation, the same POSTs: ${cell(result.webhook)}`,
		ratio(slower),
		verdict(slower <= 1.25, '≤ 1.25×'),
	);
	const answering = queue ? 'the webhook process' : 'n8n';
	// CPU times come from /proc (Linux).
	if (Number.isFinite(result.trigger.leastCpuMs) && Number.isFinite(result.webhook.leastCpuMs)) {
		row(
			`real n8n, ${queue ? 'queue mode' : 'one process'}: CPU time of ${answering} per delivery (all its threads, while the timed deliveries were answered; least of ${REPEAT})`,
			millis(result.trigger.leastCpuMs),
			`n8n's Webhook node: ${millis(result.webhook.leastCpuMs)}`,
			ratio(result.trigger.leastCpuMs / result.webhook.leastCpuMs),
		);
	}
	notes.push(
		`Real n8n, ${queue ? 'queue mode' : 'one process'}: both workflows active in the same n8n with the same settings (every execution saved), the same signed \`automation.order_paid\` events and headers to each after ${warmup} to warm up; after each run n8n's public API counted exactly ${N8N_DELIVERIES + warmup} more successful executions of that workflow, one per delivery (${REPEAT * (N8N_DELIVERIES + warmup)} of each in all). The trigger checks each signature and claims each event id at the stack's sandbox (no added latency, no rate limit). n8n's expression engine: ${process.env.N8N_EXPRESSION_ENGINE ?? 'its default (vm)'}.`,
	);
}

// ---------------------------------------------------------------------------------------------------------

function table(): string {
	const header = ['figure', 'n8n-nodes-multichannel', 'baseline (same run)', 'ratio', 'goal'];
	const lines = [header, header.map(() => '---')].concat(
		rows.map((entry) => [entry.figure, entry.value, entry.baseline, entry.ratio, entry.goal]),
	);
	return lines.map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

async function main() {
	const started = Date.now();
	if (wanted('bulk') || wanted('returnAll') || wanted('trigger')) {
		const host = await startHost();
		const exited = new Promise((resolve) => host.process.once('exit', resolve));
		try {
			if (wanted('bulk')) await bulkSend(host);
			if (wanted('returnAll')) await returnAll(host);
			if (wanted('trigger')) await trigger(host);
		} finally {
			await ask(host.process, { kind: 'close' }).catch(() => undefined);
			await exited;
		}
	}
	if (wanted('n8n')) await realN8n(false);
	if (wanted('n8nQueue')) await realN8n(true);
	if (wanted('weight')) {
		log('package weight…');
		packageWeight({ row, note: (text) => notes.push(text) });
	}

	const cpu = (await import('node:os')).cpus();
	process.stdout.write(
		[
			`Benchmark: sandbox on loopback, ${LATENCY_MS} ms latency per request, rate limit off; ${ITEMS} items, ` +
				`concurrency ${CONCURRENCY}, ${CONTACTS.toLocaleString('en-US')} contacts, ${DELIVERIES} deliveries (${N8N_DELIVERIES} into n8n), best of ${REPEAT}.`,
			`Node ${process.version}, ${cpu.length} × ${cpu[0]?.model ?? 'CPU'}; ${new Date().toISOString()}.`,
			'',
			table(),
			'',
			...notes.map((note) => `- ${note}`),
			`- Took ${seconds(Date.now() - started)} in all.`,
			'',
		].join('\n'),
	);
}

main().catch((error: Error) => {
	process.stderr.write(`bench: ${error.stack ?? String(error)}\n`);
	process.exit(1);
});
