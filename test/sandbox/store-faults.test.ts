/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- tests run in plain Node, never inside n8n (a process that exits, for a dead pid) */
import { spawnSync } from 'node:child_process';
import fs, {
	appendFileSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	readlinkSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { names, publish, withSandbox } from '../support/data-file';
import { startTestSandbox, waitFor } from '../support/sandbox';

/**
 * The data file's own faults: a line that cannot be read, a second sandbox on the same file, a compaction
 * that cannot be written.
 */

const directory = mkdtempSync(join(tmpdir(), 'sandbox-store-faults-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
afterEach(() => jest.restoreAllMocks());

/** The 1-based line number of the first line of `file` that is `line`. */
const lineNumberOf = (file: string, line: string) =>
	readFileSync(file, 'utf8').split('\n').indexOf(line) + 1;

it('starts past a line it cannot read: reports it (file and line), keeps what is before and after it', async () => {
	const dataFile = join(directory, 'corrupt.json');
	const keys = await withSandbox({ dataFile }, async (keys, baseUrl) => {
		expect((await publish(baseUrl, keys.automation, 'before')).status).toBe(202);
		return keys;
	});
	// A line that is not JSON, and one that is JSON but not a journal line, in the middle of the journal.
	appendFileSync(dataFile, 'not json at all\n{"collection":"automationEvents"}\n');
	const logs: string[] = [];
	await withSandbox({ dataFile, log: (message) => logs.push(message) }, async (_keys, baseUrl) => {
		expect(await names(baseUrl, keys.automation)).toEqual(['before']);
		expect((await publish(baseUrl, keys.automation, 'after')).status).toBe(202);
	});
	const badLines = [
		lineNumberOf(dataFile, 'not json at all'),
		lineNumberOf(dataFile, '{"collection":"automationEvents"}'),
	];
	expect(badLines[0]).toBeGreaterThan(2);
	for (const line of badLines) {
		expect(logs.some((message) => message.includes(`${dataFile}:${line}`))).toBe(true);
	}
	// Again, now that the bad lines are in the middle: both sides are kept.
	logs.length = 0;
	await withSandbox({ dataFile, log: (message) => logs.push(message) }, async (_keys, baseUrl) => {
		expect(await names(baseUrl, keys.automation)).toEqual(['after', 'before']);
	});
	expect(logs.filter((message) => message.includes(dataFile))).toHaveLength(2);
});

it('refuses a second sandbox on the same data file, and takes over the lock of a dead one', async () => {
	const dataFile = join(directory, 'locked.json');
	const lockFile = `${dataFile}.lock`;
	const first = await startTestSandbox({ dataFile });
	try {
		expect(readFileSync(lockFile, 'utf8').trim()).toBe(String(process.pid));
		await expect(startTestSandbox({ dataFile })).rejects.toThrow(
			`The data file ${dataFile} is in use by another sandbox (pid ${process.pid}, lock file ${lockFile})`,
		);
		// The refused one changed nothing: the first still appends and holds the lock.
		expect((await publish(first.baseUrl, first.keys?.automation as string, 'first')).status).toBe(
			202,
		);
		expect(readFileSync(lockFile, 'utf8').trim()).toBe(String(process.pid));
	} finally {
		await first.close();
	}
	expect(readdirSync(directory)).not.toContain('locked.json.lock');

	// The lock of a process that died without removing it (a kill -9).
	const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
	writeFileSync(lockFile, `${dead.stdout.toString()}\n`);
	const second = await startTestSandbox({ dataFile });
	try {
		expect(readFileSync(lockFile, 'utf8').trim()).toBe(String(process.pid));
		expect(await names(second.baseUrl, first.keys?.automation as string)).toEqual(['first']);
	} finally {
		await second.close();
	}
});

/** The files of `directory` this process has open (removed ones too: `… (deleted)`). */
function openFilesIn(directory: string): string[] {
	return readdirSync('/proc/self/fd').flatMap((fd) => {
		try {
			const target = readlinkSync(`/proc/self/fd/${fd}`);
			return target.startsWith(directory) ? [target] : [];
		} catch {
			return []; // closed meanwhile (the one readdirSync itself used)
		}
	});
}

it('cleans up after a compaction it could not write, and compacts again once it can', async () => {
	const dataFile = join(directory, 'full-disk.json');
	// Once the disk is full, every write to a compaction's temporary file fails.
	let diskFull = false;
	let temporaryFiles = 0;
	const temporaryFds = new Set<number>();
	const { openSync, closeSync, writeSync } = fs;
	jest.spyOn(fs, 'openSync').mockImplementation((...args: Parameters<typeof fs.openSync>) => {
		const fd = openSync(...args);
		if (diskFull && String(args[0]).endsWith('.tmp')) {
			temporaryFiles++;
			temporaryFds.add(fd);
		}
		return fd;
	});
	jest.spyOn(fs, 'closeSync').mockImplementation((fd: number) => {
		temporaryFds.delete(fd);
		closeSync(fd);
	});
	const full = jest.spyOn(fs, 'writeSync').mockImplementation(((fd: number, ...rest: unknown[]) => {
		if (temporaryFds.has(fd)) {
			throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
		}
		return (writeSync as (...args: unknown[]) => number)(fd, ...rest);
	}) as typeof fs.writeSync);

	const logs: string[] = [];
	const options = {
		dataFile,
		compactMinBytes: 8 * 1024,
		log: (message: string) => logs.push(message),
	};
	const failures = () => logs.filter((message) => message.includes('ENOSPC')).length;
	const keys = await withSandbox(options, async (keys, baseUrl) => {
		expect((await publish(baseUrl, keys.automation, 'kept')).status).toBe(202);
		const filesBefore = openFilesIn(directory);
		diskFull = true;
		// Each list rewrites its key's lastUsedAt: the journal outgrows the state and a compaction is tried.
		for (let reads = 0; failures() < 3; reads++) {
			expect(reads).toBeLessThan(2000);
			await names(baseUrl, keys.automation);
		}
		await waitFor(() => temporaryFiles >= 3 && !readdirSync(directory).some(isTemporary), 10_000);
		expect(readdirSync(directory).filter(isTemporary)).toEqual([]);
		expect(openFilesIn(directory)).toEqual(filesBefore);

		// The disk has room again: the next save works, and so does the next compaction.
		full.mockRestore();
		const largest = statSync(dataFile).size;
		expect((await publish(baseUrl, keys.automation, 'after')).status).toBe(202);
		for (let reads = 0; statSync(dataFile).size >= largest; reads++) {
			expect(reads).toBeLessThan(2000);
			await names(baseUrl, keys.automation);
		}
		expect(readdirSync(directory).filter(isTemporary)).toEqual([]);
		return keys;
	});
	await withSandbox({ dataFile }, async (_keys, baseUrl) => {
		expect(await names(baseUrl, keys.automation)).toEqual(['after', 'kept']);
	});
});

const isTemporary = (name: string) => name.endsWith('.tmp');

it('compacts in the background: requests are answered meanwhile, and what they change is kept', async () => {
	const dataFile = join(directory, 'background.json');
	const sandbox = await startTestSandbox({ dataFile, compactMinBytes: 1024 * 1024 });
	const key = sandbox.keys?.automation as string;
	const published: string[] = [];
	// The compaction waits at its fsync until a request has been answered meanwhile: without the hold, a fast
	// machine could finish it within one request's round trip (seen once in CI), which proves nothing.
	let release = () => {};
	const held = new Promise<void>((resolve) => (release = resolve));
	const realFsync = fs.fsync;
	const fsync = jest.spyOn(fs, 'fsync').mockImplementation(((
		fd: number,
		done: (error: Error | null) => void,
	) => {
		void held.then(() => realFsync(fd, done));
	}) as typeof fs.fsync);
	try {
		// ~7 MB of events, saved; then every one of them changed until the journal is twice the state.
		const now = new Date().toISOString();
		for (let index = 0; index < 20_000; index++) {
			sandbox.store.insert('automationEvents', {
				id: `evt_seed${index}`,
				workspaceId: sandbox.workspaceId,
				name: 'seeded.again',
				type: 'custom',
				payload: { index, padding: 'x'.repeat(100) },
				occurredAt: now,
				createdAt: now,
			});
		}
		sandbox.save();
		for (let round = 0; !readdirSync(directory).some(isTemporary); round++) {
			expect(round).toBeLessThan(5);
			for (const event of sandbox.store.values('automationEvents')) event.occurredAt = now;
			sandbox.save();
		}
		const beforeCompaction = statSync(dataFile).size;
		// The compaction has started. Requests go on being answered until it ends.
		let answeredDuringCompaction = 0;
		for (let index = 0; readdirSync(directory).some(isTemporary); index++) {
			const name = `during.${index}`;
			expect((await publish(sandbox.baseUrl, key, name)).status).toBe(202);
			published.push(name);
			if (readdirSync(directory).some(isTemporary)) answeredDuringCompaction++;
			if (answeredDuringCompaction === 3) release();
		}
		expect(fsync).toHaveBeenCalledTimes(1);
		expect(answeredDuringCompaction).toBeGreaterThan(0);
		expect((await publish(sandbox.baseUrl, key, 'after')).status).toBe(202);
		published.push('after');
		expect(statSync(dataFile).size).toBeLessThan(beforeCompaction * 0.75);
	} finally {
		await sandbox.close();
	}
	const again = await startTestSandbox({ dataFile });
	try {
		const events = again.store.all('automationEvents');
		expect(events.filter((event) => event.name === 'seeded.again')).toHaveLength(20_000);
		expect(
			events.filter((event) => event.name !== 'seeded.again').map((event) => event.name),
		).toEqual(published);
	} finally {
		await again.close();
	}
});
