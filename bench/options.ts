/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the benchmark runs in plain Node, never inside n8n (process: argv) */
/** `npm run bench`'s command line, read with `node:util`'s `parseArgs`. */
import path from 'node:path';
import { parseArgs } from 'node:util';

const FIGURES = [
	'bulk',
	'returnAll',
	'trigger',
	'store',
	'gather',
	'storeScale',
	'n8n',
	'n8nQueue',
	'viral',
	'viralQueue',
	'drain',
	'campaign',
	'weight',
] as const;
export type Figure = (typeof FIGURES)[number];

export const USAGE = `npm run bench -- [options]   (= ts-node --transpile-only bench/run.ts [options])

  --items N            bulk send: items sent (2000)
  --contacts N         Return All: contacts listed (50000)
  --deliveries N       trigger: signed deliveries (5000)
  --n8n-deliveries N   real n8n: signed deliveries (300)
  --burst N            real n8n: events published at once through the sandbox (200; 0: none)
  --viral-clicks N     viral link: clicks on one short link (10000)
  --viral-seconds S    viral link: within S seconds (60)
  --viral-observe S    viral link: how long to wait for n8n after the last click (120)
  --viral-batch N/S    viral link: the trigger's Batch Events, max events / max wait in seconds (100/5)
  --recipients N       campaign: recipients handed over, and items of its per-item loop (10000)
  --pacing N           campaign: messages a minute asked of the service (600)
  --campaign-seconds S campaign: how long its send rate is read (60)
  --concurrency N      requests or deliveries at a time (10)
  --latency MS         the sandbox's latency per request (20)
  --repeat N           keep the best of N runs (1)
  --profile DIR        a V8 CPU profile of each process into DIR
  --only LIST          some of ${FIGURES.join(',')} (all)
  --help               this text
`;

export interface Options {
	items: number;
	contacts: number;
	deliveries: number;
	n8nDeliveries: number;
	/** Events published at once at the sandbox, for the real-n8n burst. */
	burst: number;
	/** The viral link: clicks, within how many seconds, how long to wait after, and the batching measured. */
	viralClicks: number;
	viralSeconds: number;
	viralObserve: number;
	viralBatch: { maxEvents: number; maxWaitSeconds: number };
	/** The campaign: recipients, the pacing asked, and how long its send rate is read. */
	recipients: number;
	perMinute: number;
	campaignSeconds: number;
	concurrency: number;
	latencyMs: number;
	repeat: number;
	/** Items sent untimed before each bulk run. */
	warmup: number;
	/** Node switches for every measured process: a CPU profile into `--profile DIR`. */
	profileArgs: string[];
	figures: Figure[];
	help: boolean;
}

function count(values: Record<string, string | undefined>, name: string, fallback: number): number {
	const text = values[name];
	const value = text === undefined ? fallback : Number(text);
	if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} takes a number`);
	return value;
}

export function readOptions(args: string[] = process.argv.slice(2)): Options {
	const text = { type: 'string' } as const;
	const { values } = parseArgs({
		args,
		options: {
			items: text,
			contacts: text,
			deliveries: text,
			'n8n-deliveries': text,
			burst: text,
			'viral-clicks': text,
			'viral-seconds': text,
			'viral-observe': text,
			'viral-batch': text,
			recipients: text,
			pacing: text,
			'campaign-seconds': text,
			concurrency: text,
			latency: text,
			repeat: text,
			profile: text,
			only: text,
			help: { type: 'boolean' },
		},
	});
	const numbers = values as Record<string, string | undefined>;
	const figures = values.only?.split(',') ?? [...FIGURES];
	const unknown = figures.filter((figure) => !(FIGURES as readonly string[]).includes(figure));
	if (unknown.length)
		throw new Error(`--only: no figure ${unknown.join(', ')} (${FIGURES.join(', ')})`);
	const items = count(numbers, 'items', 2000);
	const [maxEvents, maxWaitSeconds] = (values['viral-batch'] ?? '100/5').split('/').map(Number);
	if (!(maxEvents >= 1 && maxEvents <= 1000 && maxWaitSeconds >= 1 && maxWaitSeconds <= 300))
		throw new Error(
			'--viral-batch takes max events (1–1000) / max wait in seconds (1–300), e.g. 100/5',
		);
	return {
		items,
		contacts: count(numbers, 'contacts', 50_000),
		deliveries: count(numbers, 'deliveries', 5000),
		n8nDeliveries: Math.max(1, count(numbers, 'n8n-deliveries', 300)),
		burst: count(numbers, 'burst', 200),
		viralClicks: Math.max(1, count(numbers, 'viral-clicks', 10_000)),
		viralSeconds: Math.max(1, count(numbers, 'viral-seconds', 60)),
		viralObserve: count(numbers, 'viral-observe', 120),
		viralBatch: { maxEvents, maxWaitSeconds },
		recipients: Math.max(1, count(numbers, 'recipients', 10_000)),
		perMinute: Math.min(600, Math.max(1, count(numbers, 'pacing', 600))),
		campaignSeconds: Math.max(1, count(numbers, 'campaign-seconds', 60)),
		concurrency: count(numbers, 'concurrency', 10),
		latencyMs: count(numbers, 'latency', 20),
		repeat: Math.max(1, count(numbers, 'repeat', 1)),
		warmup: Math.min(100, items),
		profileArgs: values.profile
			? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(values.profile)}`]
			: [],
		figures: figures as Figure[],
		help: values.help ?? false,
	};
}
