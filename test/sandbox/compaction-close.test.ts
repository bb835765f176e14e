/* eslint-disable @n8n/community-nodes/no-restricted-imports -- tests run in plain Node, never inside n8n */
/**
 * A compaction never outlives its sandbox: `close()` waits for the one under way and starts no other (one left
 * running renamed its file over the journal of the next sandbox on the data file, which lost its first write), and
 * the temporary files of a compaction cut short by a kill -9 are removed at the next start.
 */
import {
	appendFileSync,
	existsSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	watch,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { names, publish } from '../support/data-file';
import { bundleSandboxProcess, SandboxProcess } from '../support/killed-sandbox';
import { raw, startTestSandbox, waitFor, type SandboxKeys } from '../support/sandbox';

const directory = mkdtempSync(join(tmpdir(), 'sandbox-compaction-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const temporaryFiles = (folder: string) =>
	readdirSync(folder).filter((name) => name.endsWith('.tmp'));

it('waits in close() for a compaction, so the next sandbox on the data file keeps every write', async () => {
	const folder = mkdtempSync(join(directory, 'close-'));
	const dataFile = join(folder, 'state.json');
	const first = await startTestSandbox({ dataFile, compactMinBytes: 1 });
	const keys = first.keys as SandboxKeys;
	const workspace = first.store.all('workspaces')[0];
	// Saves until one starts a compaction (its temporary file appears at once), then more while it runs: the
	// journal it leaves (the live records and those lines) is large enough for the save in close() to start another.
	for (let save = 0; temporaryFiles(folder).length === 0; save++) {
		workspace.name = `save ${save}`;
		first.save();
	}
	for (let save = 0; save < 100; save++) {
		workspace.name = `meanwhile ${save}`;
		first.save();
	}
	await first.close();
	// A SIGTERM exits here: nothing may be left half-written.
	expect(temporaryFiles(folder)).toEqual([]);

	const second = await startTestSandbox({ dataFile });
	let closed = false;
	try {
		expect((await publish(second.baseUrl, keys.automation, 'first.write')).status).toBe(202);
		await waitFor(() => temporaryFiles(folder).length === 0, 5000, 'no compaction running');
		expect((await publish(second.baseUrl, keys.automation, 'second.write')).status).toBe(202);
		await second.close();
		closed = true;
	} finally {
		if (!closed) await second.close().catch(() => undefined);
	}
	expect(existsSync(`${dataFile}.lock`)).toBe(false);

	const third = await startTestSandbox({ dataFile });
	try {
		expect(await names(third.baseUrl, keys.automation)).toEqual(['second.write', 'first.write']);
	} finally {
		await third.close();
	}
});

describe('a kill -9 in the middle of a compaction', () => {
	const bundle = bundleSandboxProcess();
	afterAll(() => bundle.remove());

	it('leaves temporary files that the next start removes', async () => {
		const folder = mkdtempSync(join(directory, 'killed-'));
		const dataFile = join(folder, 'state.json');
		const options = { dataFile, compactMinBytes: 1, rateLimit: false as const };
		// 50 events of 60 KB: 3 MB of live records, which a compaction copies.
		const first = await SandboxProcess.start(bundle.script, options);
		const keys = first.keys as SandboxKeys;
		for (let n = 0; n < 50; n++) {
			const body = { name: `e${n}`, payload: { filler: 'x'.repeat(60_000) } };
			await raw(first.baseUrl, 'POST', '/api/v1/automation/events', { key: keys.automation, body });
		}
		await first.stop();
		// Every line twice: the journal is twice the live records, and the next save compacts it.
		const journal = readFileSync(dataFile, 'utf8');
		appendFileSync(dataFile, journal.slice(journal.indexOf('\n') + 1));

		// Killed the moment the compaction's temporary file appears; held at its fsync till then. (Unheld, it may end
		// before the kill: it did when this process reacted 200 ms late, as a loaded machine's may.)
		const second = await SandboxProcess.start(bundle.script, { ...options, holdCompaction: true });
		const watcher = watch(folder, (_event, name) => {
			if (String(name).endsWith('.tmp')) second.kill();
		});
		try {
			await names(second.baseUrl, keys.automation).catch(() => undefined);
			await second.exited;
		} finally {
			watcher.close();
			await second.stop();
		}
		expect(temporaryFiles(folder)).toHaveLength(1);

		const third = await SandboxProcess.start(bundle.script, options);
		try {
			expect(temporaryFiles(folder)).toEqual([]);
			expect(third.log).toContain('removed 1 temporary file(s) an interrupted compaction left');
			expect(await names(third.baseUrl, keys.automation)).toHaveLength(50);
		} finally {
			await third.stop();
		}
	}, 60_000);
});
