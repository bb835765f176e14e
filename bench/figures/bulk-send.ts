/** Bulk send: the node against a raw undici loop and a minimal n8n node, at `--concurrency` and at 1. */
import { ask, megabytes, perSecond, ratio, seconds } from '../lib';
import type { Timing } from '../measure';
import { log, type Bench, type Host } from '../processes';
import { verdict } from '../report';

export async function bulkSend({ options, report, best }: Bench, host: Host) {
	const { items, concurrency, warmup } = options;
	const target = { baseUrl: host.baseUrl, apiKey: host.apiKey, instanceId: host.senderId };
	const check = async (timing: Timing, tag: string) => {
		const counted = await ask<{ total: number; distinct: number }>(host.process, {
			kind: 'countMessages',
			prefix: `${tag} `,
		});
		if (timing.count !== items || counted.total !== items || counted.distinct !== items) {
			throw new Error(
				`${tag}: ${timing.count} answers, ${counted.total} messages stored (${counted.distinct} distinct); expected ${items}`,
			);
		}
	};
	const run = async (kind: 'bulkNode' | 'bulkPlain' | 'bulkRaw', at: number) => {
		log(`bulk send: ${kind}, ${items} items, concurrency ${at}…`);
		return await best(kind, { ...target, items, concurrency: at, warmup }, check);
	};
	const node = await run('bulkNode', concurrency);
	const raw = await run('bulkRaw', concurrency);
	const plain = await run('bulkPlain', concurrency);
	const nodeSerial = await run('bulkNode', 1);
	const rawSerial = await run('bulkRaw', 1);

	const rate = (timing: Timing) => perSecond(timing.count / (timing.wallMs / 1000));
	const bulkRatio = node.wallMs / raw.wallMs;
	report.row(
		`bulk send: ${items} texts as ${items} items, concurrency ${concurrency} (wall time)`,
		`${seconds(node.wallMs)} (${rate(node)})`,
		`raw undici loop, ${concurrency} at a time: ${seconds(raw.wallMs)} (${rate(raw)})`,
		ratio(bulkRatio),
		verdict(bulkRatio <= 1.15, '≤ 1.15×'),
	);
	report.row(
		`bulk send, concurrency ${concurrency}: a minimal n8n node sending the same requests the common way (2 expressions + \`httpRequestWithAuthentication\` per item, the next item started as soon as one ends)`,
		`node: ${seconds(node.wallMs)}`,
		`minimal node: ${seconds(plain.wallMs)} (${rate(plain)}); vs raw loop ${ratio(plain.wallMs / raw.wallMs)}`,
		ratio(node.wallMs / plain.wallMs),
	);
	report.row(
		`bulk send: concurrency 1 (wall time)`,
		`${seconds(nodeSerial.wallMs)} (${rate(nodeSerial)})`,
		`raw undici loop, 1 at a time: ${seconds(rawSerial.wallMs)} (${rate(rawSerial)})`,
		ratio(nodeSerial.wallMs / rawSerial.wallMs),
	);
	const speedup = nodeSerial.wallMs / node.wallMs;
	report.row(
		`bulk send: speed-up of concurrency ${concurrency} over 1`,
		`${speedup.toFixed(1)}× faster`,
		`raw undici loop: ${(rawSerial.wallMs / raw.wallMs).toFixed(1)}× faster`,
		'',
		verdict(speedup >= 8, '≥ 8×'),
	);
	report.row(
		`bulk send: peak heap above start, concurrency ${concurrency}`,
		megabytes(node.peakHeapMb),
		`raw undici loop: ${megabytes(raw.peakHeapMb)}`,
		ratio(node.peakHeapMb / Math.max(raw.peakHeapMb, 1)),
	);
	report.note(
		`Bulk send: every run was checked in the sandbox: ${items} answers and exactly ${items} distinct messages stored.`,
	);
}
