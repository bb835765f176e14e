/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the benchmark runs in plain Node, never inside n8n (fs, perf_hooks, timers) */
/**
 * What the store-at-scale figure (bench/figures/store-scale.ts) measures inside the sandbox's process: the
 * longest event-loop stall while the data file's journal is compacted, and the baselines beside it (the whole
 * snapshot serialised at once; the data file read and parsed, the floor of a start-up).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setImmediate as nextTurn, setTimeout as delay } from 'node:timers/promises';

import type { Sandbox } from '../sandbox/server';

const bytesOf = (file: string) => statSync(file).size;

/**
 * Changes `batch` messages per save, one save per turn of the event loop, until the journal has been
 * compacted (the file shrank), and waits for the compaction to end; the event loop's longest stall meanwhile.
 */
export async function churnUntilCompacted(sandbox: Sandbox, dataFile: string, batch: number) {
	const messages = sandbox.store.all('messages');
	const histogram = monitorEventLoopDelay({ resolution: 5 });
	const bytesBefore = bytesOf(dataFile);
	let largest = bytesBefore;
	let saves = 0;
	let churnStallMs = 0;
	histogram.enable();
	try {
		// Until a compaction has begun: its temporary file is there (or, done at once, the file shrank).
		const compacting = () =>
			readdirSync(dirname(dataFile)).some((name) => name.endsWith('.tmp')) ||
			bytesOf(dataFile) < largest;
		for (let next = 0; !compacting(); next += batch) {
			largest = bytesOf(dataFile);
			for (let index = next; index < next + batch; index++) {
				const message = messages[index % messages.length];
				message.updatedAt = new Date(Date.parse(message.updatedAt) + 1).toISOString();
			}
			sandbox.save();
			saves++;
			await nextTurn();
			if (saves > 100_000) throw new Error('The journal was never compacted');
		}
		churnStallMs = histogram.max / 1e6;
		// A compaction that does not block goes on in the background: the stalls while it does, alone.
		histogram.reset();
		while (readdirSync(dirname(dataFile)).some((name) => name.endsWith('.tmp'))) await delay(20);
	} finally {
		histogram.disable();
	}
	return {
		/** The saves before, and the one that began the compaction (which ends in it if it blocks). */
		churnStallMs,
		/** After that save, while a compaction in the background goes on. */
		compactionStallMs: histogram.max / 1e6,
		saves,
		largestBytes: largest,
		compactedBytes: bytesOf(dataFile),
	};
}

/** The whole state serialised in one go, as one compaction used to do before writing it. */
export function snapshotMs(sandbox: Sandbox): number {
	const start = process.hrtime.bigint();
	let characters = 0;
	for (const { collection, id, record } of sandbox.store.records()) {
		characters += JSON.stringify([collection, id, record]).length;
	}
	if (characters === 0) throw new Error('Nothing to serialise');
	return Number(process.hrtime.bigint() - start) / 1e6;
}

/** The data file read and every line parsed, what any start-up must do at least: its CPU time. */
export function parseCpuMs(dataFile: string): number {
	const before = process.cpuUsage();
	const lines = readFileSync(dataFile, 'utf8').split('\n');
	for (const line of lines) if (line) JSON.parse(line);
	const cpu = process.cpuUsage(before);
	return (cpu.user + cpu.system) / 1000;
}
