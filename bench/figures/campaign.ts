/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the benchmark runs in plain Node, never inside n8n: it waits on a timer while the service sends */
/**
 * Campaign: a list handed over from one n8n execution (Campaign → Create, calls of 1,000) against the per-item
 * send loop (Send Text per item) at the same latency in the same run, in n8n's CPU and wall time; then the
 * service's own send rate against the pacing asked, read from the campaign's counts over `--campaign-seconds`.
 */
import { setTimeout as wait } from 'node:timers/promises';

import { createWorkspaceClient } from '../../src/client';
import { undiciTransport } from '../../dev/transports/undici';
import { ratio, seconds } from '../lib';
import type { Timing } from '../measure';
import { log, type Bench, type Host } from '../processes';
import { verdict } from '../report';

const cpuOf = (timing: Timing) => timing.cpuMs ?? NaN;

export async function campaign({ options, report, best }: Bench, host: Host) {
	const { recipients, perMinute, campaignSeconds, concurrency } = options;
	const client = createWorkspaceClient(undiciTransport(host.apiKey), { baseUrl: host.baseUrl });
	const target = { baseUrl: host.baseUrl, apiKey: host.apiKey, instanceId: host.senderId };
	let campaignId = '';

	log(`campaign: ${recipients} recipients as one campaign, paced at ${perMinute}/min…`);
	const handedOver = await best(
		'campaignNode',
		{ ...target, items: recipients, perMinute, warmup: 100 },
		async (timing, tag) => {
			const { data } = await client.campaigns.list({ query: { status: 'running', limit: 100 } });
			const made = data.find((candidate) => candidate.name === tag);
			if (timing.count !== recipients || made?.counts.recipients !== recipients) {
				throw new Error(
					`${tag}: ${timing.count} accepted, ${made?.counts.recipients ?? 'no'} kept; expected ${recipients}`,
				);
			}
			campaignId = made.id;
		},
	);
	log(`campaign: the per-item loop, ${recipients} items, concurrency ${concurrency}…`);
	const loop = await best(
		'bulkNode',
		{ ...target, items: recipients, concurrency, warmup: 100 },
		async (timing, tag) => {
			if (timing.count !== recipients) throw new Error(`${tag}: ${timing.count} sends`);
		},
	);

	const cpuRatio = cpuOf(loop) / cpuOf(handedOver);
	report.row(
		`campaign: ${recipients.toLocaleString('en-US')} recipients handed over from one n8n execution (n8n's CPU; wall time)`,
		`${seconds(cpuOf(handedOver))} CPU; ${seconds(handedOver.wallMs)} wall (${Math.ceil(recipients / 1000) + 1} requests)`,
		`per-item Send Text, ${concurrency} at a time: ${seconds(cpuOf(loop))} CPU; ${seconds(loop.wallMs)} wall`,
		`${ratio(cpuRatio)} less CPU, ${ratio(loop.wallMs / handedOver.wallMs)} less wall`,
		verdict(cpuRatio >= 20, '≥ 20× less CPU'),
	);

	// The campaign made by the last measured run sends at its pace; its sends are counted from its counts.
	const done = async () => {
		const { counts } = await client.campaigns.get({ campaignId });
		return { at: Date.now(), sent: counts.recipients - counts.queued };
	};
	const first = await done();
	log(`campaign: watching the service send for ${campaignSeconds} s…`);
	await wait(campaignSeconds * 1000);
	const last = await done();
	await client.campaigns.cancel({ campaignId });
	const rate = ((last.sent - first.sent) * 60_000) / (last.at - first.at);
	const off = Math.abs(rate / perMinute - 1);
	report.row(
		`campaign: the service's send rate over ${campaignSeconds} s, paced at ${perMinute}/min`,
		`${rate.toFixed(1)}/min (${last.sent - first.sent} sent)`,
		`${perMinute}/min asked`,
		ratio(rate / perMinute),
		verdict(off <= 0.05, 'within 5%'),
	);
	report.note(
		`Campaign: CPU is the measuring process's (n8n-core running the workflow), from its start to the node's output; each run was checked at the sandbox (${recipients} recipients kept; ${recipients} sends for the loop). The campaign was cancelled after the rate was read.`,
	);
}
