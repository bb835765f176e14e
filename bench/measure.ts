/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the benchmark runs in plain Node, never inside n8n (process: exit) */
/**
 * One measurement, in a fresh process (started by bench/processes.ts with `--expose-gc`), so that each figure has
 * its own heap, its own JIT warm-up and nothing left over from the one before. Each job warms up on a small
 * run first, then times the real one; the answer goes back over IPC.
 *
 * - `bulkNode`: "Manual Trigger → Items → Multichannel (Send Text)", N items, the node's Concurrency option,
 *   run by n8n-core's WorkflowExecute (dev/harness), from the TypeScript sources.
 * - `bulkRaw`: the same requests (URL, headers, Idempotency-Key, JSON body), N at a time, with undici.
 * - `bulkPlain`: the same requests from the smallest n8n node that could send them, written the common way
 *   (`PlainLoop` in jobs/sends.ts: the same two expressions per item, n8n's `httpRequestWithAuthentication`, N workers
 *   that start their next item as soon as the last one ends): what a node pays in n8n without the turn-taking
 *   of nodes/shared/execute.ts.
 * - `campaignNode`: "Manual Trigger → Items → Multichannel (Campaign → Create)", N items handed over as one
 *   campaign (jobs/campaigns.ts); its warm-up campaign starts a day later, so that it sends nothing meanwhile.
 * - `returnAllNode`: Contact → Get Many with Return All, through the node.
 * - `returnAllRaw`: the same pages (limit 100, following nextCursor) with undici, kept in one array.
 * - `signatures`: `verifySignature` on a typical delivery, against a bare HMAC-SHA256 of the same bytes.
 * - `deliveryReceiver` (stays up until `deliveryReceiverStop`): a webhook receiver for `sendDeliveries` in
 *   another process. `trigger`: the Multichannel Trigger, activated against the sandbox, behind the test
 *   harness's stand-in for n8n's webhook endpoint (dev/harness/triggers.ts: each request runs the node's
 *   `webhook()` in n8n-core's WebhookContext); `bare`: a node:http server that only checks the HMAC and
 *   answers 200.
 * - `sendDeliveries`: signed deliveries of distinct events (the `signatures` payload, or an automation
 *   event), N at a time, with undici, to one of those receivers or to a workflow in a real n8n
 *   (bench/n8n-deliveries.ts); the deliveries per second.
 *
 * This file answers the jobs; the sends and Return All are in jobs/sends.ts, the campaign in jobs/campaigns.ts,
 * the rest in jobs/deliveries.ts.
 */
import {
	bareReceiver,
	sendDeliveries,
	signatures,
	triggerReceiver,
	type Receiver,
	type ReceiverJob,
	type SendJob,
} from './jobs/deliveries';
import { campaignNode, type CampaignJob } from './jobs/campaigns';
import {
	bulkNode,
	bulkPlain,
	bulkRaw,
	returnAllNode,
	returnAllRaw,
	type BulkJob,
} from './jobs/sends';
import { serve, withPeakMemory, type Timing } from './lib';

export type { DeliveryType } from './jobs/deliveries';
export type { Timing } from './lib';

async function timed(work: () => Promise<number>): Promise<Timing> {
	const cpuBefore = process.cpuUsage();
	const { result, wallMs, peakHeapMb, peakRssMb } = await withPeakMemory(work);
	const cpu = process.cpuUsage(cpuBefore);
	return { wallMs, count: result, peakHeapMb, peakRssMb, cpuMs: (cpu.user + cpu.system) / 1000 };
}

/** The receiver this process runs for `sendDeliveries`, between `deliveryReceiver` and its stop. */
let receiver: Receiver | undefined;

serve(async (message) => {
	const job = message.job as BulkJob;
	switch (message.kind) {
		case 'bulkNode':
		case 'bulkPlain':
		case 'bulkRaw': {
			const run = { bulkNode, bulkPlain, bulkRaw }[message.kind];
			if (job.warmup > 0) await run(job, job.warmup, `${job.tag}-warmup`);
			return await timed(async () => await run(job, job.items, job.tag));
		}
		case 'campaignNode': {
			const campaign = message.job as unknown as CampaignJob;
			if (campaign.warmup > 0) {
				await campaignNode(campaign, campaign.warmup, `${campaign.tag}-warmup`, true);
			}
			return await timed(async () => await campaignNode(campaign, campaign.items, campaign.tag));
		}
		case 'returnAllNode':
		case 'returnAllRaw': {
			const run = message.kind === 'returnAllNode' ? returnAllNode : returnAllRaw;
			await run(job, 1000); // warm-up: the first 10 pages, untimed
			return await timed(async () => await run(job));
		}
		case 'signatures':
			return signatures(Number(message.durationMs ?? 1000));
		case 'deliveryReceiver': {
			const target = message.job as unknown as ReceiverJob;
			receiver = await (target.receiver === 'trigger' ? triggerReceiver : bareReceiver)(target);
			const { url, secret, announce } = receiver;
			return { url, secret, ...(announce ? { announce } : {}) };
		}
		case 'deliveryReceiverStop': {
			const result = await receiver?.stop();
			receiver = undefined;
			return result;
		}
		case 'sendDeliveries':
			return await sendDeliveries(message.job as unknown as SendJob);
		case 'exit':
			// A clean exit, so that `--cpu-prof` writes its profile.
			setImmediate(() => process.exit(0));
			return {};
		default:
			throw new Error(`Unknown job ${String(message.kind)}`);
	}
});
