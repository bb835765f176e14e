// A stack whose start fails half-way leaves no process behind and shows the error that stopped it (issue 43): queue
// mode with its balancer's port taken fails after the sandbox, PostgreSQL and Redis are up. Before the fix, the
// clean-up threw a TypeError (no balancer yet) that hid EADDRINUSE and left those three running. About 10 s: no n8n
// process starts.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { postgresDataDir } from '../dev/stack/queue.mjs';
import { startHeadlessStack } from '../dev/stack/stack.mjs';
import { log } from './support/harness.mjs';

/** The command lines of the processes running now that name `text`. */
function processesNaming(text) {
	const found = [];
	for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
		try {
			const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
			if (command.includes(text)) found.push(`${pid}: ${command.trim()}`);
		} catch {
			// gone meanwhile
		}
	}
	return found;
}

test(
	'queue mode with the balancer port taken: the start fails with EADDRINUSE and leaves no process',
	{ timeout: 120_000 },
	async () => {
		const dir = mkdtempSync(join(tmpdir(), 'multichannel-e2e-cleanup-'));
		const taken = createServer();
		await new Promise((resolve) => taken.listen(0, '127.0.0.1', resolve));
		const { port } = taken.address();
		try {
			const started = startHeadlessStack({ dir, log, queue: { webhookPort: port } });
			await assert.rejects(started, (error) => {
				assert.equal(error.code, 'EADDRINUSE', `the error that stopped the start: ${error.stack}`);
				return true;
			});
			// Service.stop waits for each process group; a moment more for the kernel's process table.
			await sleep(500);
			const left = [dir, postgresDataDir(join(dir, 'queue'))].flatMap(processesNaming);
			assert.deepEqual(left, [], 'no sandbox, PostgreSQL or Redis process of the stack is left');
		} finally {
			// Whatever a broken clean-up left is ended here, so that a failure does not hang the run.
			for (const entry of [dir, postgresDataDir(join(dir, 'queue'))].flatMap(processesNaming)) {
				process.kill(Number(entry.split(':')[0]), 'SIGKILL');
			}
			taken.close();
			rmSync(dir, { recursive: true, force: true });
			rmSync(postgresDataDir(join(dir, 'queue')), { recursive: true, force: true });
		}
	},
);
