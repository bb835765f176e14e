/* eslint-disable @n8n/community-nodes/no-restricted-imports -- tests run in plain Node, never inside n8n */
import { appendFileSync, linkSync, mkdtempSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { names, publish, withSandbox } from '../support/data-file';

/**
 * The data file is an append-only journal: a request appends what it changed (the file is neither rewritten
 * nor replaced), a torn last line is ignored on load, and the journal is compacted once it outgrows the state.
 */

const directory = mkdtempSync(join(tmpdir(), 'sandbox-journal-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

it('appends what a request changed, in place, whatever the size of the state', async () => {
	const dataFile = join(directory, 'append.json');
	const keys = await withSandbox({ dataFile }, async (keys, baseUrl) => {
		for (let index = 0; index < 200; index++) await publish(baseUrl, keys.automation, `e${index}`);
		// A second name for the file as it is now: a file rewritten and renamed over it would leave this one behind.
		const alias = `${dataFile}.alias`;
		linkSync(dataFile, alias);
		const before = statSync(dataFile);
		expect((await publish(baseUrl, keys.automation, 'one.more')).status).toBe(202);
		const after = statSync(dataFile);
		expect(statSync(alias)).toMatchObject({ ino: after.ino, size: after.size, nlink: 2 });
		unlinkSync(alias);
		// One event and the key's lastUsedAt, not the 200 events before it.
		expect(after.size - before.size).toBeLessThan(2000);
		return keys;
	});
	await withSandbox({ dataFile }, async (_keys, baseUrl) => {
		expect((await names(baseUrl, keys.automation)).slice(0, 2)).toEqual(['one.more', 'e199']);
	});
});

it('ignores a torn last line, and goes on appending after it', async () => {
	const dataFile = join(directory, 'torn.json');
	const keys = await withSandbox({ dataFile }, async (keys, baseUrl) => {
		expect((await publish(baseUrl, keys.automation, 'kept')).status).toBe(202);
		return keys;
	});
	// A kill -9 in the middle of a write.
	appendFileSync(dataFile, '[["automationEvents","evt_torn",{"id":"evt_torn","name":"to');
	await withSandbox({ dataFile }, async (_keys, baseUrl) => {
		expect(await names(baseUrl, keys.automation)).toEqual(['kept']);
		expect((await publish(baseUrl, keys.automation, 'after')).status).toBe(202);
	});
	await withSandbox({ dataFile }, async (_keys, baseUrl) => {
		expect(await names(baseUrl, keys.automation)).toEqual(['after', 'kept']);
	});
});

it('compacts the journal once it outgrows the live state', async () => {
	const dataFile = join(directory, 'compact.json');
	const options = { dataFile, compactMinBytes: 16 * 1024 };
	const keys = await withSandbox(options, async (keys, baseUrl) => {
		expect((await publish(baseUrl, keys.automation, 'kept')).status).toBe(202);
		// Each request rewrites its key's lastUsedAt: 300 lines of the same record.
		for (let index = 0; index < 300; index++) await names(baseUrl, keys.automation);
		expect(statSync(dataFile).size).toBeLessThan(40 * 1024);
		return keys;
	});
	await withSandbox(options, async (_keys, baseUrl) => {
		expect(await names(baseUrl, keys.automation)).toEqual(['kept']);
	});
});
