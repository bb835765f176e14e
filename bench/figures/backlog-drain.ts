/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the benchmark runs in plain Node, never inside n8n */
/**
 * A disabled webhook's backlog of 10,000 held events released into a receiver on loopback (bench/backlog-drain.ts):
 * the sandbox with its data file, a 2 s attempt timeout, the receiver answering at once. How long it takes to drain,
 * how many were in flight at most, the longest event-loop stall, and how many events went twice.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { startSandbox } from '../../sandbox/server';
import { CountingReceiver, drainBacklog } from '../backlog-drain';
import { seconds } from '../lib';
import { log, type Bench } from '../processes';
import { verdict } from '../report';

const EVENTS = 10_000;

export async function backlogDrain({ report }: Bench) {
	const dir = mkdtempSync(path.join(tmpdir(), 'multichannel-bench-drain-'));
	const sandbox = await startSandbox({
		port: 0,
		dataFile: path.join(dir, 'sandbox.json'),
		rateLimit: false,
		log: () => undefined,
		webhooks: { timeoutMs: 2000 },
	});
	const receiver = await new CountingReceiver().start();
	try {
		log(`drain: ${EVENTS.toLocaleString('en-US')} held events released…`);
		const drain = await drainBacklog(sandbox, sandbox.keys!.automation, receiver, EVENTS);
		log(`drain: ${JSON.stringify(drain)}`);
		const delivered = receiver.eventIds.size;
		report.row(
			`a disabled webhook's backlog of ${EVENTS.toLocaleString('en-US')} held events released into a receiver on loopback (data file on, 2 s attempt timeout)`,
			`${delivered.toLocaleString('en-US')} delivered in ${seconds(drain.drainMs)}, ${drain.posts.toLocaleString('en-US')} POSTs (${drain.sentTwice} twice), at most ${drain.maxInFlight} in flight, longest stall ${Math.round(drain.maxStallMs)} ms`,
			'before pacing (issue 44, 10,000 held): up to 6,500 POSTs at once, stalls of 17–25 s, 19,926 POSTs',
			'',
			verdict(
				delivered === EVENTS &&
					drain.sentTwice === 0 &&
					drain.maxInFlight <= 64 &&
					drain.maxStallMs <= 200,
				'each once, ≤ 64 in flight, no stall over 200 ms',
			),
		);
	} finally {
		await sandbox.close();
		await receiver.close();
		rmSync(dir, { recursive: true, force: true });
	}
}
