/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- tests run in plain Node, never inside n8n (the sandbox as a child process) */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildSync } from 'esbuild';

import type { SandboxOptions } from '../../sandbox/server';

/**
 * A sandbox in a process of its own (test/support/sandbox-process.ts), which a test kills with SIGKILL, a real
 * kill -9, and starts again on the same data file. The script is bundled once by esbuild, its imports included
 * (esbuild itself, which the console's script module imports, is left to node_modules: the bundle is written
 * under node_modules/.cache so that it finds it), and started with `node`: a start takes a fraction of a second.
 */

const ROOT = join(__dirname, '..', '..');

export type ProcessOptions = Omit<SandboxOptions, 'now' | 'log'> & {
	shiftMs?: number;
	/** A compaction stays under way for good (held at its fsync), for a test that kills it there. */
	holdCompaction?: boolean;
};

/** Bundles the sandbox process; `remove` deletes the bundle. */
export function bundleSandboxProcess(): { script: string; remove(): void } {
	const cache = join(ROOT, 'node_modules', '.cache');
	mkdirSync(cache, { recursive: true });
	const directory = mkdtempSync(join(cache, 'sandbox-process-'));
	const script = join(directory, 'sandbox-process.js');
	buildSync({
		entryPoints: [join(__dirname, 'sandbox-process.ts')],
		outfile: script,
		bundle: true,
		platform: 'node',
		target: 'node20',
		format: 'cjs',
		external: ['esbuild'],
		logLevel: 'silent',
	});
	return { script, remove: () => rmSync(directory, { recursive: true, force: true }) };
}

export class SandboxProcess {
	private output = '';
	/** Resolves once the process has exited, with its exit code (null when a signal ended it). */
	readonly exited: Promise<number | null>;

	private constructor(
		private readonly child: ChildProcess,
		readonly baseUrl: string,
		readonly keys: { workspace: string; shortLink: string; automation: string } | undefined,
	) {
		this.exited =
			child.exitCode !== null || child.signalCode !== null
				? Promise.resolve(child.exitCode)
				: new Promise((resolve) => child.once('exit', resolve));
	}

	static async start(script: string, options: ProcessOptions): Promise<SandboxProcess> {
		const child = spawn(process.execPath, [script], {
			env: { ...process.env, SANDBOX_PROCESS_OPTIONS: JSON.stringify(options) },
			stdio: ['pipe', 'pipe', 'pipe'],
		});
		let output = '';
		child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
		const first = await new Promise<string>((resolve, reject) => {
			let line = '';
			const onData = (chunk: string) => {
				line += chunk;
				if (!line.includes('\n')) return;
				child.stdout?.off('data', onData);
				resolve(line.slice(0, line.indexOf('\n')));
			};
			child.stdout?.setEncoding('utf8').on('data', onData);
			child.once('exit', (code) =>
				reject(new Error(`the sandbox process exited (${code}) before listening: ${output}`)),
			);
		});
		const { baseUrl, keys } = JSON.parse(first) as Pick<SandboxProcess, 'baseUrl' | 'keys'>;
		const started = new SandboxProcess(child, baseUrl, keys);
		started.output = output;
		child.stderr?.on('data', (chunk: string) => (started.output += chunk));
		return started;
	}

	/** What it wrote to stderr. */
	get log(): string {
		return this.output;
	}

	/** kill -9, now. */
	kill(): void {
		this.child.kill('SIGKILL');
	}

	/** Moves its clock ahead. */
	async shift(ms: number): Promise<void> {
		const shifted = new Promise<void>((resolve) => {
			const onData = (chunk: string) => {
				if (!String(chunk).includes('shifted')) return;
				this.child.stdout?.off('data', onData);
				resolve();
			};
			this.child.stdout?.on('data', onData);
		});
		this.child.stdin?.write(`shift ${ms}\n`);
		await shifted;
	}

	/** Ends it (kill -9) if it still runs, and waits until it has. */
	async stop(): Promise<void> {
		if (this.child.exitCode === null && this.child.signalCode === null) this.kill();
		await this.exited;
	}
}
