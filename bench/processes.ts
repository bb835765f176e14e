/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the benchmark runs in plain Node, never inside n8n: it starts its sandbox and measurements as processes */
/**
 * The processes of a benchmark run: the sandbox's (bench/sandbox-host.ts) and a fresh bench/measure.ts
 * process for each measurement, so that none shares an event loop or a heap with what is measured.
 */
import type { ChildProcess } from 'node:child_process';

import { ask, forkTs } from './lib';
import type { Timing } from './measure';
import type { Options } from './options';
import type { Report } from './report';

export const log = (text: string) => process.stderr.write(`${text}\n`);

export interface Host {
	process: ChildProcess;
	baseUrl: string;
	apiKey: string;
	senderId: string;
	/** How long the sandbox took to start (data file loaded, listening). */
	startedInMs: number;
	/** The CPU time it took (the machine may be busy: the wall time is also waiting for a core). */
	startedCpuMs: number;
}

/**
 * Starts the sandbox's process, runs `work` against it, then closes it. `sandbox` overrides the latency and
 * gives a data file (a persistent sandbox).
 */
export async function withHost(
	options: Options,
	work: (host: Host) => Promise<void>,
	sandbox: { latencyMs?: number; dataFile?: string } = {},
) {
	const child = forkTs(
		'sandbox-host.ts',
		[String(sandbox.latencyMs ?? options.latencyMs), sandbox.dataFile ?? ''],
		options.profileArgs,
	);
	const exited = new Promise((resolve) => child.once('exit', resolve));
	try {
		const ready = await new Promise<Omit<Host, 'process'>>((resolve, reject) => {
			child.once('message', (message: Omit<Host, 'process'> & { kind: string }) =>
				resolve(message),
			);
			child.once('exit', (code) => reject(new Error(`The sandbox process exited (${code})`)));
		});
		await work({ process: child, ...ready });
	} finally {
		await ask(child, { kind: 'close' }).catch(() => undefined);
		await exited;
	}
}

export interface Measurer {
	/** A fresh bench/measure.ts process for `work`, ended cleanly after it. */
	inProcess<T>(work: (child: ChildProcess) => Promise<T>): Promise<T>;
	/** Runs one job of bench/measure.ts in a fresh process. */
	measure<T>(kind: string, job?: Record<string, unknown>): Promise<T>;
	/** The best (least disturbed) of `--repeat` runs, each checked by `check`. */
	best(
		kind: string,
		job: Record<string, unknown>,
		check: (timing: Timing, tag: string) => Promise<void>,
	): Promise<Timing>;
}

export function measurer(options: Options): Measurer {
	const inProcess = async <T>(work: (child: ChildProcess) => Promise<T>): Promise<T> => {
		const child = forkTs('measure.ts', [], ['--expose-gc', ...options.profileArgs]);
		const exited = new Promise((resolve) => child.once('exit', resolve));
		try {
			return await work(child);
		} finally {
			await ask(child, { kind: 'exit' }).catch(() => undefined);
			await exited;
		}
	};
	const measure = async <T>(kind: string, job: Record<string, unknown> = {}): Promise<T> =>
		await inProcess(async (child) => await ask<T>(child, { kind, job }));
	const best: Measurer['best'] = async (kind, job, check) => {
		const runs: Timing[] = [];
		for (let attempt = 0; attempt < options.repeat; attempt++) {
			const tag = `bench-${kind}-${String(job.concurrency ?? '')}-${Date.now()}-${attempt}`;
			const timing = await measure<Timing>(kind, { ...job, tag });
			await check(timing, tag);
			runs.push(timing);
		}
		return runs.reduce((a, b) => (b.wallMs < a.wallMs ? b : a));
	};
	return { inProcess, measure, best };
}

/** What a figure gets: the options, where its rows go, and the measuring processes. */
export interface Bench extends Measurer {
	options: Options;
	report: Report;
}
