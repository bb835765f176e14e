/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the sandbox runs in plain Node, never inside n8n */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * One sandbox per data file: two appending to one journal would interleave their lines and each would lose
 * the other's changes at its next compaction. The lock is a file beside the data file (`<data file>.lock`)
 * holding the pid of the sandbox that uses it; a lock whose process is gone (a kill -9) is taken over.
 */

export class DataFileLock {
	private constructor(readonly file: string) {}

	/** Takes the lock of `dataFile`, or throws naming the process that holds it. */
	static take(dataFile: string): DataFileLock {
		const file = `${dataFile}.lock`;
		mkdirSync(dirname(file), { recursive: true });
		// Twice at most: a stale lock is removed once, then created anew.
		for (let attempt = 0; attempt < 2; attempt++) {
			if (createHolding(file, process.pid)) return new DataFileLock(file);
			const holder = holderOf(file);
			if (holder !== undefined && isRunning(holder)) {
				throw new Error(
					`The data file ${dataFile} is in use by another sandbox (pid ${holder}, lock file ${file}). ` +
						'Stop it, or give this one another --data-file (or --memory).',
				);
			}
			removeIfHeldBy(file, holder);
		}
		throw new Error(`Could not take the lock ${file} of the data file ${dataFile}`);
	}

	/** Gives the lock up (only if it is still ours). */
	release(): void {
		removeIfHeldBy(this.file, process.pid);
	}
}

/** Creates the lock file holding `pid`; false if it exists already. */
function createHolding(file: string, pid: number): boolean {
	let fd: number | undefined;
	let failure: unknown;
	try {
		fd = openSync(file, 'wx', 0o600);
	} catch (error) {
		failure = error;
	}
	if (fd === undefined) {
		if ((failure as NodeJS.ErrnoException).code === 'EEXIST') return false;
		throw failure;
	}
	try {
		writeSync(fd, `${pid}\n`);
	} finally {
		closeSync(fd);
	}
	return true;
}

/** The pid in a lock file; undefined when it holds none (written halfway by a process that died). */
function holderOf(file: string): number | undefined {
	try {
		const pid = Number(readFileSync(file, 'utf8').trim());
		return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
	} catch {
		return undefined;
	}
}

function isRunning(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		// EPERM: it runs, under another user.
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

function removeIfHeldBy(file: string, pid: number | undefined): void {
	if (holderOf(file) === pid) rmSync(file, { force: true });
}
