/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the benchmark runs in plain Node, never inside n8n (process: hrtime) */
/**
 * What a received message costs the persistent sandbox when a gathering webhook has 10,000 open bursts, against
 * 100: its burst is found by its id, a hold appends that message alone to the journal, and the bound is kept
 * without a scan, so the cost should not grow with what is open (it did: every message scanned every open
 * burst, and every hold wrote its whole burst again). Each count in a sandbox of its own, seeded straight into
 * the gathering (sandbox-host `seedBursts`); then sequential messages, each into another open burst (its second
 * message), no latency; the sandbox process's CPU time per message, and the median wall time of one.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { ask, benchChat, elapsedMs, median, millis, processCpuMs, ratio } from '../lib';
import { log, withHost, type Bench, type Host } from '../processes';
import { verdict } from '../report';

const MESSAGES = 200;
const BASELINE_OPEN = 100;
const OPEN = 10_000;

interface InboundCost {
	cpuMs: number;
	wallMs: number;
}

async function post(host: Host, path: string, body: object): Promise<void> {
	const response = await fetch(`${host.baseUrl}${path}`, {
		method: 'POST',
		headers: { authorization: `Bearer ${host.apiKey}`, 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	if (response.status >= 300)
		throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`);
}

/** A sandbox of its own with `open` bursts: the CPU per message into them and the median wall time. */
async function inboundCost(bench: Bench, directory: string, open: number): Promise<InboundCost> {
	let cost: InboundCost | undefined;
	await withHost(
		bench.options,
		async (host) => {
			const webhook = await fetch(`${host.baseUrl}/api/v1/webhooks`, {
				method: 'POST',
				headers: { authorization: `Bearer ${host.apiKey}`, 'content-type': 'application/json' },
				// Nothing is due during the run (quiet 60 s), so nothing is delivered to this address.
				body: JSON.stringify({
					url: 'http://127.0.0.1:9/bench',
					events: ['message.received'],
					gather: { quietSeconds: 60, maxWaitSeconds: 300 },
				}),
			});
			const { id } = (await webhook.json()) as { id: string };
			log(`gathering: seeding ${open.toLocaleString('en-US')} open bursts…`);
			const seeded = await ask<{ open: number }>(host.process, {
				kind: 'seedBursts',
				webhookId: id,
				from: 0,
				count: open,
			});
			if (seeded.open !== open) throw new Error(`${seeded.open} open bursts, not ${open}`);
			const inbound = (index: number) =>
				post(host, `/sandbox/instances/${host.senderId}/inbound`, {
					from: benchChat(Math.floor((index * open) / (MESSAGES + 1))),
					text: `gathered ${index}`,
				});
			await inbound(MESSAGES); // saves what seeding changed, untimed
			const pid = host.process.pid as number;
			const cpuBefore = processCpuMs([pid]) ?? 0;
			const walls: number[] = [];
			for (let index = 0; index < MESSAGES; index++) {
				const start = process.hrtime.bigint();
				await inbound(index);
				walls.push(elapsedMs(start));
			}
			cost = {
				cpuMs: ((processCpuMs([pid]) ?? 0) - cpuBefore) / MESSAGES,
				wallMs: median(walls),
			};
		},
		{ latencyMs: 0, dataFile: path.join(directory, `state-${open}.jsonl`) },
	);
	return cost as InboundCost;
}

export async function gathering(bench: Bench) {
	const directory = mkdtempSync(path.join(tmpdir(), 'multichannel-bench-gather-'));
	try {
		const few = await inboundCost(bench, directory, BASELINE_OPEN);
		const many = await inboundCost(bench, directory, OPEN);
		const cpuRatio = many.cpuMs / few.cpuMs;
		bench.report.row(
			`A received message held in its chat's burst, persistent sandbox, ${OPEN.toLocaleString('en-US')} open bursts (sandbox CPU; median wall)`,
			`${millis(many.cpuMs)}; ${millis(many.wallMs)}`,
			`${BASELINE_OPEN} open bursts: ${millis(few.cpuMs)}; ${millis(few.wallMs)}`,
			ratio(cpuRatio),
			verdict(cpuRatio <= 2, '≤ 2× (a message costs what it holds)'),
		);
	} finally {
		rmSync(directory, { recursive: true, force: true });
	}
}
