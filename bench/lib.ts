/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- the benchmark runs in plain Node, never inside n8n: it starts its sandbox and measurements as child processes, samples memory with timers */
/**
 * What the benchmark's processes share: starting a TypeScript child process, the messages they exchange,
 * a peak-memory sampler and number formatting.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { PACKAGE_DIR } from '../dev/package-dir';

export { PACKAGE_DIR };
const BENCH_DIR = __dirname;

/** Starts a TypeScript file of bench/ in its own Node process (ts-node, transpile only), with IPC. */
export function forkTs(file: string, args: string[] = [], execArgv: string[] = []): ChildProcess {
	return fork(path.join(BENCH_DIR, file), args, {
		cwd: PACKAGE_DIR,
		execArgv: ['-r', 'ts-node/register/transpile-only', ...execArgv],
		env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true', N8N_LOG_LEVEL: 'silent' },
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
	});
}

/** Sends a request to a child over IPC and waits for the answer with the same id. */
export function ask<T>(child: ChildProcess, message: Record<string, unknown>): Promise<T> {
	const id = Math.random().toString(36).slice(2);
	return new Promise<T>((resolve, reject) => {
		const onMessage = (answer: { id?: string; error?: string; result?: T }) => {
			if (answer.id !== id) return;
			child.off('message', onMessage);
			child.off('exit', onExit);
			if (answer.error) reject(new Error(answer.error));
			else resolve(answer.result as T);
		};
		const onExit = (code: number | null) =>
			reject(new Error(`The ${String(message.kind)} process exited (${code}) before answering`));
		child.on('message', onMessage);
		child.once('exit', onExit);
		child.send({ ...message, id });
	});
}

/** Answers `ask` requests in a child process with `handle`. */
export function serve(handle: (message: Record<string, unknown>) => Promise<unknown>): void {
	process.on('message', (message: Record<string, unknown>) => {
		handle(message).then(
			(result) => process.send?.({ id: message.id, result }),
			(error: Error) => process.send?.({ id: message.id, error: error?.stack ?? String(error) }),
		);
	});
}

/**
 * Wall time, peak heap and peak RSS of `work`, memory above what was in use just before (after a full GC when
 * exposed; the GC itself is not timed).
 */
export async function withPeakMemory<T>(
	work: () => Promise<T>,
): Promise<{ result: T; wallMs: number; peakHeapMb: number; peakRssMb: number }> {
	const gc = (globalThis as { gc?: () => void }).gc;
	gc?.();
	gc?.();
	const before = process.memoryUsage();
	let peakHeap = before.heapUsed;
	let peakRss = before.rss;
	const sample = () => {
		const now = process.memoryUsage();
		peakHeap = Math.max(peakHeap, now.heapUsed);
		peakRss = Math.max(peakRss, now.rss);
	};
	const timer = setInterval(sample, 20);
	try {
		const start = process.hrtime.bigint();
		const result = await work();
		const wallMs = elapsedMs(start);
		sample();
		return {
			result,
			wallMs,
			peakHeapMb: (peakHeap - before.heapUsed) / 2 ** 20,
			peakRssMb: (peakRss - before.rss) / 2 ** 20,
		};
	} finally {
		clearInterval(timer);
	}
}

/** CPU time (user + system, all threads) that processes have used so far, from /proc; undefined elsewhere. */
export function processCpuMs(pids: number[]): number | undefined {
	const ticksPerSecond = 100; // USER_HZ, 100 on Linux
	let ticks = 0;
	for (const pid of pids) {
		const stat = `/proc/${pid}/stat`;
		if (!existsSync(stat)) return undefined;
		// Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
		const text = readFileSync(stat, 'utf8');
		const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
		ticks += Number(fields[11]) + Number(fields[12]);
	}
	return (ticks * 1000) / ticksPerSecond;
}

/** One timed run: how long, how many, the process's peak memory and the CPU time it used. */
export interface Timing {
	wallMs: number;
	count: number;
	peakHeapMb: number;
	peakRssMb: number;
	/** The measuring process's CPU time (user and system) during the run, where it was read. */
	cpuMs?: number;
}

export function elapsedMs(start: bigint): number {
	return Number(process.hrtime.bigint() - start) / 1e6;
}

export const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

export const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
export const millis = (ms: number) => `${ms.toFixed(ms < 10 ? 2 : 0)} ms`;
export const megabytes = (mb: number) => `${mb.toFixed(0)} MB`;
export const kilobytes = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
export const ratio = (value: number) => `${value.toFixed(2)}×`;
export const perSecond = (value: number) =>
	`${value >= 10_000 ? Math.round(value).toLocaleString('en-US') : value.toFixed(0)}/s`;

/** The number of the `index`-th chat of the bursts the sandbox host seeds (`seedBursts`), or of a campaign's recipient. */
export function benchChat(index: number): string {
	return `+1303${String(5_000_000 + index).padStart(7, '0')}`;
}
