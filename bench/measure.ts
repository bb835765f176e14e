/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the benchmark runs in plain Node, never inside n8n (HTTP receivers; process: timing, IPC, exit) */
/**
 * One measurement, in a fresh process (started by bench/run.ts with `--expose-gc`), so that each figure has
 * its own heap, its own JIT warm-up and nothing left over from the one before. Each job warms up on a small
 * run first, then times the real one; the answer goes back over IPC.
 *
 * - `bulkNode`: "Manual Trigger → Items → Multichannel (Send Text)", N items, the node's Concurrency option,
 *   run by n8n-core's WorkflowExecute (dev/harness/n8n.ts), from the TypeScript sources.
 * - `bulkRaw`: the same requests (URL, headers, Idempotency-Key, JSON body), N at a time, with undici.
 * - `bulkPlain`: the same requests from the smallest n8n node that could send them, written the common way
 *   (`PlainLoop` below: the same two expressions per item, n8n's `httpRequestWithAuthentication`, N workers
 *   that start their next item as soon as the last one ends): what a node pays in n8n without the turn-taking
 *   of nodes/shared/execute.ts.
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
 */
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeParameters,
	type INodeType,
} from 'n8n-workflow';
import { request } from 'undici';

import { EVENT_ID_HEADER, SIGNATURE_HEADER, signPayload, verifySignature } from '../src/client';
import { loadPackage, runNode } from '../dev/harness';
import { N8nEndpoint, TRIGGER_TYPES, TriggerUnderTest } from '../dev/harness/triggers';
import { elapsedMs, serve, withPeakMemory } from './lib';

const NODE_TYPE = 'n8n-nodes-multichannel.multichannel';
const NODE_NAME = 'Multichannel';

interface Target {
	baseUrl: string;
	apiKey: string;
	instanceId: string;
}

interface BulkJob extends Target {
	items: number;
	concurrency: number;
	/** Starts every text, so that each run sends new messages (and can be counted). */
	tag: string;
	warmup: number;
}

export interface Timing {
	wallMs: number;
	count: number;
	peakHeapMb: number;
	peakRssMb: number;
}

const phoneOf = (index: number) => `+1415557${String(index % 10_000).padStart(4, '0')}`;
const phoneOfOrOne = (index: number) => (index % 10_000 === 0 ? '+14155571111' : phoneOf(index));
const textOf = (tag: string, index: number) => `${tag} message ${index}`;

/** Runs a sending node in a workflow on `items` items (a phone and a text each); how many it output. */
async function sendFromNode(
	node: { type: string; parameters: INodeParameters },
	job: BulkJob,
	items: number,
	tag: string,
): Promise<number> {
	const result = await runNode(
		{ ...node, name: NODE_NAME },
		{
			credentials: { multichannelApi: { baseUrl: job.baseUrl, apiKey: job.apiKey } },
			items: Array.from({ length: items }, (_, index) => ({
				phone: phoneOfOrOne(index),
				text: textOf(tag, index),
			})),
		},
	);
	if (result.error) throw new Error(`The workflow failed: ${result.error.message}`);
	return result.output(NODE_NAME).length;
}

async function bulkNode(job: BulkJob, items: number, tag: string): Promise<number> {
	const parameters = {
		resource: 'message',
		operation: 'sendText',
		instanceId: { __rl: true, mode: 'id', value: job.instanceId },
		to: '={{ $json.phone }}',
		text: '={{ $json.text }}',
		options: { concurrency: job.concurrency },
	};
	return await sendFromNode({ type: NODE_TYPE, parameters }, job, items, tag);
}

const PLAIN_LOOP_TYPE = 'bench.plainLoop';

/** The least an n8n node can do to send the texts: read its two expressions, send through n8n's helper. */
class PlainLoop implements INodeType {
	description = {
		displayName: 'Plain Loop',
		name: 'plainLoop',
		group: ['output'],
		version: 1,
		description: 'Sends each item with httpRequestWithAuthentication, N at a time',
		defaults: { name: 'Plain Loop' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'multichannelApi', required: true }],
		properties: [
			{ displayName: 'URL', name: 'url', type: 'string', default: '' },
			{ displayName: 'To', name: 'to', type: 'string', default: '' },
			{ displayName: 'Text', name: 'text', type: 'string', default: '' },
			{ displayName: 'Concurrency', name: 'concurrency', type: 'number', default: 1 },
		],
	} as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const url = this.getNodeParameter('url', 0) as string;
		const output: INodeExecutionData[] = new Array(items.length);
		let next = 0;
		const worker = async () => {
			while (next < items.length) {
				const index = next++;
				const body = JSON.stringify({
					to: this.getNodeParameter('to', index) as string,
					text: this.getNodeParameter('text', index) as string,
				});
				const options = {
					method: 'POST' as const,
					url,
					headers: {
						Accept: 'application/json',
						'Content-Type': 'application/json',
						'Idempotency-Key': randomUUID(),
					},
					body,
					encoding: 'text' as const,
					json: false,
					returnFullResponse: true,
					ignoreHttpStatusErrors: true,
				};
				const response = (await this.helpers.httpRequestWithAuthentication.call(
					this,
					'multichannelApi',
					options,
				)) as { statusCode: number; body: string };
				if (response.statusCode !== 201) throw new Error(`HTTP ${response.statusCode}`);
				output[index] = {
					json: { id: (JSON.parse(response.body) as { id: string }).id },
					pairedItem: { item: index },
				};
			}
		};
		const concurrency = this.getNodeParameter('concurrency', 0) as number;
		await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
		return [output];
	}
}

async function bulkPlain(job: BulkJob, items: number, tag: string): Promise<number> {
	const pkg = await loadPackage();
	pkg.nodeTypes[PLAIN_LOOP_TYPE] ??= new PlainLoop();
	const parameters = {
		url: `${job.baseUrl}/api/v1/instances/${encodeURIComponent(job.instanceId)}/messages/text`,
		to: '={{ $json.phone }}',
		text: '={{ $json.text }}',
		concurrency: job.concurrency,
	};
	return await sendFromNode({ type: PLAIN_LOOP_TYPE, parameters }, job, items, tag);
}

async function bulkRaw(job: BulkJob, items: number, tag: string): Promise<number> {
	const url = `${job.baseUrl}/api/v1/instances/${encodeURIComponent(job.instanceId)}/messages/text`;
	let next = 0;
	let sent = 0;
	async function worker() {
		while (next < items) {
			const index = next++;
			const response = await request(url, {
				method: 'POST',
				headers: {
					Accept: 'application/json',
					'Content-Type': 'application/json',
					'Idempotency-Key': randomUUID(),
					Authorization: `Bearer ${job.apiKey}`,
				},
				body: JSON.stringify({ to: phoneOfOrOne(index), text: textOf(tag, index) }),
			});
			const body = (await response.body.json()) as { id?: string };
			if (response.statusCode !== 201 || !body.id) {
				throw new Error(`HTTP ${response.statusCode}: ${JSON.stringify(body)}`);
			}
			sent++;
		}
	}
	await Promise.all(Array.from({ length: Math.min(job.concurrency, items) }, worker));
	return sent;
}

/** `max` limits the run (a warm-up); without it, Return All. */
async function returnAllNode(job: Target, max?: number): Promise<number> {
	const result = await runNode(
		{
			type: NODE_TYPE,
			name: NODE_NAME,
			parameters: {
				resource: 'contact',
				operation: 'getAll',
				instanceId: { __rl: true, mode: 'id', value: job.instanceId },
				returnAll: max === undefined,
				...(max === undefined ? {} : { limit: max }),
			},
		},
		{ credentials: { multichannelApi: { baseUrl: job.baseUrl, apiKey: job.apiKey } } },
	);
	if (result.error) throw new Error(`The workflow failed: ${result.error.message}`);
	return result.output(NODE_NAME).length;
}

async function returnAllRaw(job: Target, max = Infinity): Promise<number> {
	const items: unknown[] = [];
	let cursor: string | null = null;
	do {
		const query: string = `limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
		const response = await request(
			`${job.baseUrl}/api/v1/instances/${encodeURIComponent(job.instanceId)}/contacts?${query}`,
			{ headers: { Accept: 'application/json', Authorization: `Bearer ${job.apiKey}` } },
		);
		const page = (await response.body.json()) as { data: unknown[]; nextCursor: string | null };
		if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode}`);
		for (const item of page.data) items.push(item);
		cursor = page.nextCursor;
	} while (cursor && items.length < max);
	return items.length;
}

async function timed(work: () => Promise<number>): Promise<Timing> {
	const { result, wallMs, peakHeapMb, peakRssMb } = await withPeakMemory(work);
	return { wallMs, count: result, peakHeapMb, peakRssMb };
}

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
function signatures(durationMs: number) {
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

interface ReceiverJob {
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

interface Receiver {
	url: string;
	secret: string;
	stop(): Promise<ReturnType<ReturnType<typeof meter>['result']>>;
}

/** The receiver this process runs for `sendDeliveries`, between `deliveryReceiver` and its stop. */
let receiver: Receiver | undefined;

/** The Multichannel Trigger, activated against the sandbox: its webhook URL and the secret it registered. */
async function triggerReceiver(job: ReceiverJob): Promise<Receiver> {
	const endpoint = await new N8nEndpoint().start();
	const node = new TriggerUnderTest(endpoint, {
		type: TRIGGER_TYPES.messaging,
		parameters: { events: ['message.received'] },
		credentials: { multichannelApi: { baseUrl: job.baseUrl, apiKey: job.apiKey } },
	});
	await node.activate();
	const registrations = node.nodeStaticData().webhooks as Record<string, { secret: string }>;
	const counter = meter(job.warmup);
	// Called for each delivery that started an execution, just before the endpoint answers it.
	endpoint.answerAfterExecution = () => {
		counter.take();
		return 200;
	};
	return {
		url: node.webhookUrl(),
		secret: registrations[node.webhookUrl()].secret,
		stop: async () => {
			const result = counter.result();
			await node.deactivate();
			await endpoint.close();
			return result;
		},
	};
}

/** The least a receiver must do: read the body, check the HMAC of `t.body` in constant time, answer 200. */
async function bareReceiver(job: ReceiverJob): Promise<Receiver> {
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
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`,
		secret,
		stop: async () => {
			const result = counter.result();
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
			return result;
		},
	};
}

interface SendJob {
	url: string;
	secret: string;
	count: number;
	concurrency: number;
	warmup: number;
	type?: DeliveryType;
}

interface Delivery {
	eventId: string;
	payload: string;
	signature: string;
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
async function sendDeliveries(job: SendJob): Promise<Timing & { startedAt: number }> {
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
			return { url: receiver.url, secret: receiver.secret };
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
