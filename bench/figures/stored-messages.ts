/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the benchmark runs in plain Node, never inside n8n (process: hrtime) */
/**
 * What a send costs the persistent sandbox beside 10,000 and 100,000 stored messages, against an empty store:
 * each write appends what it changed to the data file's journal, so its cost should not grow with the state
 * (it did when the whole state was rewritten on every request). Sequential sends, no latency; the sandbox
 * process's CPU time per send, and the median wall time of a send.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { ask, elapsedMs, median, millis, processCpuMs, ratio } from '../lib';
import { log, withHost, type Bench, type Host } from '../processes';
import { verdict } from '../report';

const SENDS = 200;
const STORED = [10_000, 100_000];

interface SendCost {
	cpuMs: number;
	wallMs: number;
}

/** A text sent by the benchmark's sender; its message id. */
export async function send(host: Host, text: string): Promise<string> {
	const response = await fetch(`${host.baseUrl}/api/v1/instances/${host.senderId}/messages/text`, {
		method: 'POST',
		headers: { authorization: `Bearer ${host.apiKey}`, 'content-type': 'application/json' },
		body: JSON.stringify({ to: '+14155550123', text }),
	});
	const body = (await response.json()) as { id?: string };
	if (response.status !== 201 || !body.id) throw new Error(`send: HTTP ${response.status}`);
	return body.id;
}

/** `SENDS` sequential sends: the sandbox's CPU per send and the median wall time of one. */
async function sendCost(host: Host, tag: string): Promise<SendCost> {
	const pid = host.process.pid as number;
	await send(host, `${tag} warm-up`); // saves whatever seeding changed, untimed
	const cpuBefore = processCpuMs([pid]) ?? 0;
	const walls: number[] = [];
	for (let index = 0; index < SENDS; index++) {
		const start = process.hrtime.bigint();
		await send(host, `${tag} ${index}`);
		walls.push(elapsedMs(start));
	}
	const cpuMs = ((processCpuMs([pid]) ?? 0) - cpuBefore) / SENDS;
	return { cpuMs, wallMs: median(walls) };
}

export async function storedMessages({ options, report }: Bench) {
	const directory = mkdtempSync(path.join(tmpdir(), 'multichannel-bench-store-'));
	try {
		await withHost(
			options,
			async (host) => {
				log('stored messages: a send with an empty store…');
				const template = await send(host, 'template');
				const empty = await sendCost(host, 'empty');
				let stored = 0;
				for (const target of STORED) {
					log(`stored messages: seeding ${target.toLocaleString('en-US')} messages…`);
					await ask(host.process, {
						kind: 'seedMessages',
						templateId: template,
						count: target - stored,
					});
					stored = target;
					const cost = await sendCost(host, `stored-${target}`);
					const cpuRatio = cost.cpuMs / empty.cpuMs;
					report.row(
						`A send to the persistent sandbox beside ${target.toLocaleString('en-US')} stored messages (sandbox CPU; median wall)`,
						`${millis(cost.cpuMs)}; ${millis(cost.wallMs)}`,
						`an empty store: ${millis(empty.cpuMs)}; ${millis(empty.wallMs)}`,
						ratio(cpuRatio),
						verdict(cpuRatio <= 2, '≤ 2× (a write costs what it writes)'),
					);
				}
			},
			{ latencyMs: 0, dataFile: path.join(directory, 'state.jsonl') },
		);
	} finally {
		rmSync(directory, { recursive: true, force: true });
	}
}
