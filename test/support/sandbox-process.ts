/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- tests run in plain Node, never inside n8n */
/**
 * A sandbox as a process of its own, for tests that kill it (kill -9): bundled and started by
 * test/support/killed-sandbox.ts. Its options come as JSON in SANDBOX_PROCESS_OPTIONS (`shiftMs`: how far its
 * clock is ahead of the machine's; `holdCompaction`: a compaction never gets past its fsync, the only asynchronous
 * one, so that a kill finds it under way however fast the machine); once it listens it prints one JSON line
 * (`baseUrl`, `keys` on the first start).
 * A line `shift <ms>` on its input moves its clock ahead, answered `shifted`.
 */
import fs from 'node:fs';
import { createInterface } from 'node:readline';

import { startSandbox, type SandboxOptions } from '../../sandbox/server';

async function main(): Promise<void> {
	const {
		shiftMs = 0,
		holdCompaction = false,
		...options
	} = JSON.parse(process.env.SANDBOX_PROCESS_OPTIONS ?? '{}') as SandboxOptions & {
		shiftMs?: number;
		holdCompaction?: boolean;
	};
	if (holdCompaction) fs.fsync = (() => undefined) as unknown as typeof fs.fsync;
	let shift = shiftMs;
	const sandbox = await startSandbox({
		...options,
		now: () => Date.now() + shift,
		log: (message) => process.stderr.write(`${message}\n`),
	});
	process.stdout.write(`${JSON.stringify({ baseUrl: sandbox.baseUrl, keys: sandbox.keys })}\n`);
	createInterface({ input: process.stdin }).on('line', (line) => {
		const [command, value] = line.split(' ');
		if (command !== 'shift') return;
		shift += Number(value);
		process.stdout.write('shifted\n');
	});
}

main().catch((error: unknown) => {
	process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
	process.exit(1);
});
