/**
 * The trigger: signature verifications against a bare HMAC, and signed deliveries through its webhook handler
 * against a bare `node:http` receiver (the receiver in one process, the sender in another).
 */
import { ask, perSecond, ratio, seconds } from '../lib';
import type { Timing } from '../measure';
import type { Receiver } from '../jobs/deliveries';
import { log, type Bench, type Host } from '../processes';

export async function trigger({ options, report, measure, inProcess }: Bench, host: Host) {
	const { deliveries: count, concurrency } = options;
	log('trigger: signature verifications…');
	const result = await measure<{ verify: number; bare: number; payloadBytes: number }>(
		'signatures',
		{},
	);
	report.row(
		`trigger: signature verifications/s (\`verifySignature\`, ${result.payloadBytes}-byte delivery, 1 secret)`,
		perSecond(result.verify),
		`bare HMAC-SHA256 of the same bytes: ${perSecond(result.bare)}`,
		ratio(result.bare / result.verify),
	);

	const warmup = Math.min(500, count);
	const deliveries = async (receiver: 'trigger' | 'bare') =>
		await inProcess(async (server) => {
			log(`trigger: ${count} deliveries to the ${receiver} receiver…`);
			const target = await ask<Pick<Receiver, 'url' | 'secret' | 'announce'>>(server, {
				kind: 'deliveryReceiver',
				job: { receiver, baseUrl: host.baseUrl, apiKey: host.apiKey, warmup },
			});
			const timing = await measure<Timing>('sendDeliveries', {
				...target,
				count,
				concurrency,
				warmup,
			});
			const { taken, cpuUsPerDelivery } = await ask<{ taken: number; cpuUsPerDelivery: number }>(
				server,
				{ kind: 'deliveryReceiverStop' },
			);
			if (taken !== count + warmup) {
				throw new Error(`The ${receiver} receiver took ${taken} deliveries of ${count + warmup}`);
			}
			return { ...timing, cpuUsPerDelivery };
		});
	const node = await deliveries('trigger');
	const bare = await deliveries('bare');
	const rate = (timing: Timing) => timing.count / (timing.wallMs / 1000);
	report.row(
		`trigger: deliveries/s through the trigger's webhook handler (\`webhook()\` in n8n-core's WebhookContext; ${count} signed deliveries, ${concurrency} at a time)`,
		`${perSecond(rate(node))} (${seconds(node.wallMs)})`,
		`bare \`node:http\` receiver checking the HMAC: ${perSecond(rate(bare))} (${seconds(bare.wallMs)})`,
		ratio(rate(bare) / rate(node)),
	);
	report.row(
		"trigger: the webhook receiver's CPU time per delivery (its process, after the warm-up)",
		`${node.cpuUsPerDelivery.toFixed(0)} µs`,
		`bare \`node:http\` receiver: ${bare.cpuUsPerDelivery.toFixed(0)} µs`,
		ratio(node.cpuUsPerDelivery / bare.cpuUsPerDelivery),
	);
	report.note(
		`Trigger: the Multichannel Trigger behind the tests' stand-in for n8n's webhook endpoint (dev/harness/triggers.ts), which answers once \`webhook()\` returns the item: the workflow n8n would then run is not part of the figure. Every delivery started exactly one execution (${count + warmup} with the warm-up), and the bare receiver accepted every signature.`,
	);
}
