// Stacks cut short leave no process behind (issue 43):
// - a start that fails half-way shows the error that stopped it: queue mode with its balancer's port taken fails
//   after the sandbox, PostgreSQL and Redis are up. Before the fix, the clean-up threw a TypeError (no balancer yet)
//   that hid EADDRINUSE and left those three running. About 10 s: no n8n process starts.
// - a run ended from outside while its stacks boot (CI ending it after a failed step, Ctrl-C): e2e/run.mjs by
//   SIGTERM while its shared stacks boot, a test file by SIGINT while its own stack boots. Before the fix, the
//   stacks still booting were left running (seen: the sandboxes of both shared stacks). About 15 s each.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { postgresDataDir } from '../dev/stack/queue.mjs';
import { startHeadlessStack } from '../dev/stack/stack.mjs';
import { log } from './support/harness.mjs';

/**
 * The processes running now that name `text` in their command line, their folder or their environment (n8n names
 * its user folder only there), as `pid: command line`.
 */
function processesNaming(text) {
	const found = [];
	for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
		try {
			const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
			const named =
				command.includes(text) ||
				readlinkSync(`/proc/${pid}/cwd`).includes(text) ||
				readFileSync(`/proc/${pid}/environ`, 'utf8').includes(text);
			if (named) found.push(`${pid}: ${command.trim()}`);
		} catch {
			// gone meanwhile
		}
	}
	return found;
}

/** Kills what a broken clean-up left, so that a failure does not hang the run. */
function killProcessesNaming(texts) {
	for (const entry of texts.flatMap(processesNaming)) {
		process.kill(Number(entry.split(':')[0]), 'SIGKILL');
	}
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
			killProcessesNaming([dir, postgresDataDir(join(dir, 'queue'))]);
			taken.close();
			rmSync(dir, { recursive: true, force: true });
			rmSync(postgresDataDir(join(dir, 'queue')), { recursive: true, force: true });
		}
	},
);

/**
 * Starts `args` (node, from the repo), sends `signal` once its output shows every one of `bootMarks` (to its whole
 * process group with `group`, as Ctrl-C in a terminal does), and resolves with its output and the temporary folders
 * it named (its stacks', PostgreSQL's) once it has exited.
 */
async function endWhileBooting(args, signal, bootMarks, { group = false } = {}) {
	const child = spawn(process.execPath, args, {
		// Not a test of this run: without NODE_TEST_CONTEXT, `node --test` runs its file.
		env: { ...process.env, E2E_SKIP_BUILD: '1', NODE_TEST_CONTEXT: undefined },
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: group,
	});
	let output = '';
	let signalled = false;
	const exited = new Promise((resolve) => child.once('exit', resolve));
	for (const stream of [child.stdout, child.stderr]) {
		stream.setEncoding('utf8');
		stream.on('data', (chunk) => {
			output += chunk;
			if (!signalled && bootMarks.every((mark) => mark.test(output))) {
				signalled = true;
				if (group) process.kill(-child.pid, signal);
				else child.kill(signal);
			}
		});
	}
	const code = await exited;
	const folders = [...new Set(output.match(/\/tmp\/multichannel-[\w-]+/g) ?? [])];
	return { code, output, signalled, folders };
}

for (const [what, args, signal, bootMarks, options] of [
	[
		'e2e/run.mjs ended by SIGTERM while its shared stacks boot',
		['e2e/run.mjs', 'n8n2', 'labels.test.mjs'],
		'SIGTERM',
		[/shared: starting n8n/, /shared: creating a PostgreSQL cluster/],
	],
	[
		'a test file ended by Ctrl-C (SIGINT to its process group) while its own stack boots',
		['--test', 'e2e/batches.test.mjs'],
		'SIGINT',
		[/starting n8n/],
		{ group: true },
	],
]) {
	test(`${what}: no process of its stacks is left`, { timeout: 180_000 }, async () => {
		const ended = await endWhileBooting(args, signal, bootMarks, options);
		try {
			assert.ok(ended.signalled, `the boot began:\n${ended.output.slice(-3000)}`);
			assert.ok(ended.folders.length >= 1, `the stacks' folders: ${ended.folders}`);
			await sleep(500);
			const left = ended.folders.flatMap(processesNaming);
			assert.deepEqual(left, [], `no process of the stacks in ${ended.folders.join(', ')} is left`);
		} finally {
			killProcessesNaming(ended.folders);
			for (const folder of ended.folders) rmSync(folder, { recursive: true, force: true });
		}
	});
}
