/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the benchmark runs in plain Node, never inside n8n (HTTP receivers; process: timing) */
/**
 * The delivery jobs: signature verification rates, the receivers (the Multichannel Trigger behind the harness's
 * stand-in for n8n's webhook endpoint, or a bare HMAC check) and signed deliveries sent to one of them or to n8n.
 */
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';

import { closeServer, listenOnLoopback } from '../../dev/loopback';
import { N8nEndpoint, TRIGGER_TYPES, TriggerUnderTest } from '../../dev/harness/triggers';
import { EVENT_ID_HEADER, SIGNATURE_HEADER, signPayload, verifySignature } from '../../src/client';
import { elapsedMs, type Timing } from '../lib';

const NOW = new Date().toISOString();

/** What each kind of delivery carries in `data`. */
const EVENT_DATA = {
	/** A typical delivery: an inbound text message (about 540 bytes in all). */
	'message.received': {
		id: 'msg_3c9e1f7a2b4d6e80',
		instanceId: 'in_0123456789abcdef',
		from: '+14155550123',
		type: 'text',
		content: { text: 'Hello! '.repeat(40) },
	},
	/** A published automation event, as the service fans it out. */
	'automation.order_paid': {
		id: 'aev_5b1d0c9e7f3a2468',
		name: 'order_paid',
		type: 'automation.order_paid',
		payload: { orderId: 'ord_10482', amount: 4990, currency: 'EUR', phone: '+14155550123' },
		occurredAt: NOW,
		createdAt: NOW,
	},
};
export type DeliveryType = keyof typeof EVENT_DATA;

/** The event envelope of a delivery (src/client/events.ts). */
function deliveryPayload(eventId: string, type: DeliveryType = 'message.received'): string {
	return JSON.stringify({
		id: eventId,
		type,
		createdAt: new Date().toISOString(),
		workspaceId: 'ws_920e3462688b8de7',
		data: EVENT_DATA[type],
	});
}

/** Verifications per second of a typical delivery (one secret), and of a bare HMAC over the same bytes. */
export function signatures(durationMs: number) {
	const secret = randomBytes(32).toString('hex');
	const payload = deliveryPayload('evt_4dc35611dee6a719');
	const header = signPayload(secret, payload);
	const rate = (once: () => boolean) => {
		for (let index = 0; index < 2000; index++) once();
		let count = 0;
		const start = process.hrtime.bigint();
		while (elapsedMs(start) < durationMs) {
			for (let index = 0; index < 200; index++) if (once()) count++;
		}
		return count / (elapsedMs(start) / 1000);
	};
	const timestamp = Number(/t=(\d+)/.exec(header)?.[1]);
	const verify = rate(() => verifySignature({ payload, header, secrets: secret }).valid);
	const bare = rate(
		() =>
			createHmac('sha256', secret).update(`${timestamp}.`).update(payload).digest().length === 32,
	);
	return { verify, bare, payloadBytes: Buffer.byteLength(payload) };
}

export interface ReceiverJob {
	receiver: 'trigger' | 'bare';
	baseUrl: string;
	apiKey: string;
	/** Deliveries before the measured ones: CPU time is counted from the end of the warm-up. */
	warmup: number;
}

/** Counts the deliveries a receiver took, and the CPU time its process spent on them after the warm-up. */
function meter(warmup: number) {
	let taken = 0;
	let from = process.cpuUsage();
	return {
		take() {
			taken++;
			if (taken === warmup) from = process.cpuUsage();
		},
		result() {
			const used = process.cpuUsage(from);
			return { taken, cpuUsPerDelivery: (used.user + used.system) / Math.max(1, taken - warmup) };
		},
	};
}

export interface Receiver {
	url: string;
	secret: string;
	/** Where the events sent to it are announced first (`SendJob.announce`). */
	announce?: SendJob['announce'];
	stop(): Promise<ReturnType<ReturnType<typeof meter>['result']>>;
}

/** The Multichannel Trigger, activated against the sandbox: its webhook URL and the secret it registered. */
export async function triggerReceiver(job: ReceiverJob): Promise<Receiver> {
	const endpoint = await new N8nEndpoint().start();
	const node = new TriggerUnderTest(endpoint, {
		type: TRIGGER_TYPES.messaging,
		parameters: { events: ['message.received'] },
		credentials: { multichannelApi: { baseUrl: job.baseUrl, apiKey: job.apiKey } },
	});
	await node.activate();
	const registrations = node.nodeStaticData().webhooks as Record<
		string,
		{ secret: string; webhookId: string }
	>;
	const { secret, webhookId } = registrations[node.webhookUrl()];
	const counter = meter(job.warmup);
	// Called for each delivery that started an execution, just before the endpoint answers it.
	endpoint.answerAfterExecution = () => {
		counter.take();
		return 200;
	};
	return {
		url: node.webhookUrl(),
		secret,
		announce: {
			url: `${job.baseUrl}/sandbox/webhooks/${webhookId}/announced-deliveries`,
			key: job.apiKey,
		},
		stop: async () => {
			const result = counter.result();
			await node.deactivate();
			await endpoint.close();
			return result;
		},
	};
}

/** The least a receiver must do: read the body, check the HMAC of `t.body` in constant time, answer 200. */
export async function bareReceiver(job: ReceiverJob): Promise<Receiver> {
	const secret = randomBytes(32).toString('hex');
	const counter = meter(job.warmup);
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const header = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(req.headers[SIGNATURE_HEADER]));
			const valid =
				header !== null &&
				timingSafeEqual(
					createHmac('sha256', secret)
						.update(`${header[1]}.`)
						.update(Buffer.concat(chunks))
						.digest(),
					Buffer.from(header[2], 'hex'),
				);
			if (valid) counter.take();
			res.writeHead(valid ? 200 : 401, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ received: valid }));
		});
	});
	return {
		url: `${await listenOnLoopback(server)}/webhook`,
		secret,
		stop: async () => {
			const result = counter.result();
			await closeServer(server);
			return result;
		},
	};
}

export interface SendJob {
	url: string;
	secret: string;
	count: number;
	concurrency: number;
	warmup: number;
	type?: DeliveryType;
	/**
	 * The sandbox call that says these events were delivered to the trigger's webhook (its announced-deliveries
	 * URL and a workspace key): the trigger claims each event, and the service takes claims of delivered events
	 * only. None for a receiver that claims nothing.
	 */
	announce?: { url: string; key: string };
}

interface Delivery {
	eventId: string;
	payload: string;
	signature: string;
}

/** Tells the sandbox the events were delivered (`SendJob.announce`), before they are sent. */
async function announce(job: SendJob, deliveries: Delivery[]): Promise<void> {
	if (!job.announce) return;
	for (let start = 0; start < deliveries.length; start += 1000) {
		const eventIds = deliveries.slice(start, start + 1000).map((delivery) => delivery.eventId);
		const response = await request(job.announce.url, {
			method: 'POST',
			headers: { authorization: `Bearer ${job.announce.key}`, 'content-type': 'application/json' },
			body: JSON.stringify({ eventIds }),
		});
		const text = await response.body.text();
		if (response.statusCode !== 200)
			throw new Error(`announcing deliveries: HTTP ${response.statusCode} ${text}`);
	}
}

/** POSTs one signed delivery; its HTTP status. */
async function post(url: string, { eventId, payload, signature }: Delivery): Promise<number> {
	const response = await request(url, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			[SIGNATURE_HEADER]: signature,
			[EVENT_ID_HEADER]: eventId,
		},
		body: payload,
	});
	await response.body.dump();
	return response.statusCode;
}

/** A webhook that n8n is still registering answers 404 and runs nothing: the delivery is sent again. */
async function postOnceRegistered(url: string, delivery: Delivery, timeoutMs = 30_000) {
	const deadline = Date.now() + timeoutMs;
	let status = await post(url, delivery);
	while (status === 404 && Date.now() < deadline) {
		await sleep(100);
		status = await post(url, delivery);
	}
	return status;
}

/**
 * Signed deliveries of distinct events, `concurrency` at a time, after a warm-up; every answer must be a 200.
 * `startedAt` (epoch ms) is when the timed deliveries began.
 */
export async function sendDeliveries(job: SendJob): Promise<Timing & { startedAt: number }> {
	const signed = (prefix: string, count: number): Delivery[] =>
		Array.from({ length: count }, (_, index) => {
			const eventId = `evt_${prefix}${index}`;
			const payload = deliveryPayload(eventId, job.type);
			return { eventId, payload, signature: signPayload(job.secret, payload) };
		});
	const check = (status: number, { eventId }: Delivery) => {
		if (status !== 200) throw new Error(`${eventId}: HTTP ${status}`);
	};
	const send = async (deliveries: Delivery[]) => {
		await announce(job, deliveries);
		let next = 0;
		const worker = async () => {
			while (next < deliveries.length) {
				const delivery = deliveries[next++];
				check(await post(job.url, delivery), delivery);
			}
		};
		await Promise.all(Array.from({ length: Math.min(job.concurrency, deliveries.length) }, worker));
	};
	const tag = randomUUID().slice(0, 8);
	const [first, ...warmup] = signed(`warmup${tag}_`, job.warmup);
	if (first) await announce(job, [first]);
	if (first) check(await postOnceRegistered(job.url, first), first);
	await send(warmup);
	const deliveries = signed(`${tag}_`, job.count);
	const startedAt = Date.now();
	const start = process.hrtime.bigint();
	await send(deliveries);
	return {
		wallMs: elapsedMs(start),
		count: deliveries.length,
		peakHeapMb: 0,
		peakRssMb: 0,
		startedAt,
	};
}
