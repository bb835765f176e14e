/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the benchmark runs in plain Node, never inside n8n (process: hrtime) */
/**
 * The persistent sandbox at scale. A list page (50 messages of one chat; 50 chats of an instance) beside
 * 1,000 and 50,000 stored messages, all in that chat: a page should cost what it returns, not what is stored.
 * Then, at ~40 MB of data file: the longest event-loop stall while the journal is compacted (against the
 * whole snapshot serialised at once, which a compaction used to block for), and the CPU time a sandbox takes
 * to start on that file (against reading and parsing it, the floor).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { ask, elapsedMs, median, millis, ratio, seconds } from '../lib';
import { log, withHost, type Bench, type Host } from '../processes';
import { verdict } from '../report';
import { send } from './stored-messages';

const STORED = [1000, 50_000];
const PAGES = 40;
const TARGET_BYTES = 40 * 1024 * 1024;

async function get(host: Host, pathAndQuery: string): Promise<{ data: Array<{ id: string }> }> {
	const response = await fetch(`${host.baseUrl}/api/v1${pathAndQuery}`, {
		headers: { authorization: `Bearer ${host.apiKey}` },
	});
	if (response.status !== 200) throw new Error(`GET ${pathAndQuery}: HTTP ${response.status}`);
	return (await response.json()) as { data: Array<{ id: string }> };
}

/** The median wall time of a page, over `PAGES` requests (after one untimed). */
async function pageMs(host: Host, pathAndQuery: string): Promise<number> {
	await get(host, pathAndQuery);
	const walls: number[] = [];
	for (let index = 0; index < PAGES; index++) {
		const start = process.hrtime.bigint();
		const page = await get(host, pathAndQuery);
		walls.push(elapsedMs(start));
		if (page.data.length === 0) throw new Error(`GET ${pathAndQuery}: an empty page`);
	}
	return median(walls);
}

async function listPages({ report }: Bench, host: Host): Promise<void> {
	const template = await send(host, 'template');
	const chatId = (await get(host, `/instances/${host.senderId}/chats?limit=1`)).data[0].id;
	const pages = {
		'messages of one chat': `/instances/${host.senderId}/messages?chatId=${encodeURIComponent(chatId)}&limit=50`,
		chats: `/instances/${host.senderId}/chats?limit=50`,
	};
	const timings: Array<Record<string, number>> = [];
	let stored = 1;
	for (const target of STORED) {
		log(`store at scale: list pages beside ${target.toLocaleString('en-US')} messages…`);
		await ask(host.process, { kind: 'seedMessages', templateId: template, count: target - stored });
		stored = target;
		await send(host, `saved ${target}`); // saves the seeded messages, untimed
		const timing: Record<string, number> = {};
		for (const [name, query] of Object.entries(pages)) timing[name] = await pageMs(host, query);
		timings.push(timing);
	}
	for (const name of Object.keys(pages)) {
		const [few, many] = timings.map((timing) => timing[name]);
		report.row(
			`A list page (${name}, 50 a page) beside ${STORED[1].toLocaleString('en-US')} stored messages (median wall)`,
			millis(many),
			`beside ${STORED[0].toLocaleString('en-US')}: ${millis(few)}`,
			ratio(many / few),
			verdict(many / few <= 1.5, '≤ 1.5× (flat: a page costs what it returns)'),
		);
	}
}

/** Messages until the data file is about `TARGET_BYTES`; the longest stall of a compaction at that size. */
async function compaction({ report }: Bench, host: Host): Promise<number> {
	const template = await send(host, 'large');
	for (;;) {
		const { bytes } = await ask<{ bytes: number }>(host.process, { kind: 'dataFileBytes' });
		if (bytes >= TARGET_BYTES) break;
		log(`store at scale: ${(bytes / 1024 / 1024).toFixed(0)} MB of data file…`);
		await ask(host.process, { kind: 'seedMessages', templateId: template, count: 10_000 });
		await send(host, 'save');
	}
	log('store at scale: changing messages until the journal is compacted…');
	const churn = await ask<{
		churnStallMs: number;
		compactionStallMs: number;
		largestBytes: number;
		compactedBytes: number;
	}>(host.process, { kind: 'churnUntilCompacted', batch: 200 });
	const snapshot = await ask<number>(host.process, { kind: 'snapshotMs' });
	const stall = Math.max(churn.churnStallMs, churn.compactionStallMs);
	const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
	report.row(
		`Longest event-loop stall of the sandbox while its journal is compacted (${mb(churn.largestBytes)} → ${mb(churn.compactedBytes)}; saves of 200 changed messages meanwhile)`,
		millis(stall),
		`the whole snapshot serialised at once: ${millis(snapshot)}`,
		ratio(stall / snapshot),
		verdict(stall <= snapshot / 4, '≤ 0.25× (never the whole snapshot)'),
	);
	report.note(
		`Store at scale: the longest stall was ${millis(churn.churnStallMs)} up to the save that began the compaction (the whole compaction, if it blocks), ${millis(churn.compactionStallMs)} while it went on in the background.`,
	);
	return churn.compactedBytes;
}

export async function storeScale(bench: Bench) {
	const directory = mkdtempSync(path.join(tmpdir(), 'multichannel-bench-scale-'));
	const dataFile = path.join(directory, 'state.jsonl');
	try {
		let bytes = 0;
		await withHost(
			bench.options,
			async (host) => {
				await listPages(bench, host);
				bytes = await compaction(bench, host);
			},
			{ latencyMs: 0, dataFile },
		);
		log('store at scale: starting on the data file…');
		await withHost(
			bench.options,
			async (host) => {
				const floor = await ask<number>(host.process, { kind: 'parseCpuMs' });
				bench.report.row(
					`Start-up of a sandbox on a ${(bytes / 1024 / 1024).toFixed(0)} MB data file, to listening (CPU; wall)`,
					`${seconds(host.startedCpuMs)}; ${seconds(host.startedInMs)}`,
					`reading and parsing the file: ${seconds(floor)} (CPU)`,
					ratio(host.startedCpuMs / floor),
				);
			},
			{ latencyMs: 0, dataFile },
		);
	} finally {
		rmSync(directory, { recursive: true, force: true });
	}
}
