/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the benchmark and its tests run in plain Node, never inside n8n: a receiver on loopback, timers, the event loop's delay */
/**
 * A disabled webhook's backlog released into a receiver that counts what it has in hand (sandbox/delivery/pacing.ts): the
 * events are held while the webhook is disabled, then it is enabled through the API, and the receiver records
 * each request as it comes, how many were open then, and the event loop's longest stall while it drained. Shared by
 * the `drain` bench figure and test/sandbox/pacing.test.ts.
 */
import { createServer, type Server } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

import { closeServer, listenOnLoopback } from '../dev/loopback';
import { undiciTransport } from '../dev/transports/undici';
import type { Sandbox } from '../sandbox/server';
import { ACK_HEADER, createAutomationClient, DELIVERY_ID_HEADER } from '../src/client';

/** One request as it came: its event, its attempt, and how many requests were open with it. */
export interface Arrival {
	eventId: string;
	attempt: number;
	inFlight: number;
}

/**
 * A receiver that counts its open requests. `answer` says, per request (numbered from 0), after how many ms it
 * answers 200 (acknowledged), or `hang` to answer never (until the sender gives up).
 */
export class CountingReceiver {
	readonly arrivals: Arrival[] = [];
	/** The events received. */
	readonly eventIds = new Set<string>();
	inFlight = 0;
	/** Requests the sender gave up on before they were answered. */
	givenUp = 0;
	maxInFlight = 0;
	url = '';
	answer: (index: number) => number | 'hang' = () => 0;
	private readonly server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const { id } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string };
			this.inFlight++;
			this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
			const attempt = Number(req.headers['x-multichannel-delivery-attempt']);
			this.arrivals.push({ eventId: id, attempt, inFlight: this.inFlight });
			this.eventIds.add(id);
			const delayMs = this.answer(this.arrivals.length - 1);
			res.on('close', () => {
				this.inFlight--;
				if (!res.writableFinished) this.givenUp++;
			});
			if (delayMs === 'hang') return;
			setTimeout(() => {
				res.writeHead(200, { [ACK_HEADER]: String(req.headers[DELIVERY_ID_HEADER]) }).end();
			}, delayMs);
		});
	});

	async start(): Promise<this> {
		this.url = await listenOnLoopback(this.server);
		return this;
	}

	close(): Promise<void> {
		return closeServer(this.server);
	}
}

export interface Drain {
	events: number;
	/** From the request that enabled the webhook until the receiver had every event. */
	drainMs: number;
	maxInFlight: number;
	/** The event loop's longest delay meanwhile (the sandbox, the receiver and this code share it). */
	maxStallMs: number;
	posts: number;
	/** Events received more than once. */
	sentTwice: number;
	/** The furthest any event came from its place in the order the events were made. */
	maxDisplacement: number;
}

/** `events` events held for a new automation webhook of the sandbox's workspace, released into `receiver`. */
export async function drainBacklog(
	sandbox: Sandbox,
	automationKey: string,
	receiver: CountingReceiver,
	events: number,
	timeoutMs = 120_000,
): Promise<Drain> {
	const client = createAutomationClient(undiciTransport(automationKey), {
		baseUrl: sandbox.baseUrl,
		maxRetries: 0,
	});
	const hook = await client.webhooks.create({
		body: { url: `${receiver.url}/drain`, events: ['*'] },
	});
	await client.webhooks.update({ webhookId: hook.id, body: { enabled: false } });
	const made = new Map<string, number>();
	for (let n = 0; n < events; n++) {
		const event = sandbox.core.emit(sandbox.workspaceId, 'automation.drain', { n });
		made.set(event.id, n);
	}
	// Saved as they were held, as events made by requests and timers are.
	sandbox.save();

	const stalls = monitorEventLoopDelay({ resolution: 10 });
	stalls.enable();
	const started = Date.now();
	await client.webhooks.update({ webhookId: hook.id, body: { enabled: true } });
	while (receiver.eventIds.size < events && Date.now() - started < timeoutMs) await sleep(20);
	const drainMs = Date.now() - started;
	stalls.disable();

	const { arrivals } = receiver;
	return {
		events,
		drainMs,
		maxInFlight: receiver.maxInFlight,
		maxStallMs: stalls.max / 1e6,
		posts: arrivals.length,
		sentTwice: arrivals.length - receiver.eventIds.size,
		maxDisplacement: arrivals.reduce(
			(furthest, { eventId }, index) =>
				Math.max(furthest, Math.abs(index - (made.get(eventId) ?? Infinity))),
			0,
		),
	};
}
