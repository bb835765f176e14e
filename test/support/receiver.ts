/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- tests run in plain Node, never inside n8n */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

import {
	ACK_HEADER,
	DELIVERY_ID_HEADER,
	verifySignature,
	type SignatureCheck,
} from '../../src/client';
import { closeServer, listenOnLoopback } from '../../dev/loopback';
import { waitFor } from './waiting';

/**
 * A webhook receiver as a user would write one: checks the signature over the raw body with
 * `verifySignature` against the secrets it knows, answers 401 when it fails, and otherwise what `respond`
 * says (200 by default; a status, or a delay before answering), acknowledging it when `acknowledge` is set.
 */
export interface Received {
	path: string;
	raw: string;
	headers: IncomingHttpHeaders;
	event: {
		id: string;
		type: string;
		createdAt: string;
		workspaceId?: string;
		data: Record<string, unknown>;
	};
	attempt: number;
	signature: SignatureCheck;
	/** The status it was answered with, once answered. */
	status?: number;
}

export class Receiver {
	readonly received: Received[] = [];
	readonly secrets: string[] = [];
	respond: (delivery: Received, count: number) => number | { status: number; delayMs: number } =
		() => 200;
	/** Whether a 2xx answer acknowledges the delivery (`X-Multichannel-Ack`), as an n8n trigger does. */
	acknowledge = false;
	url = '';
	private server: Server | undefined;

	async start(port = 0): Promise<this> {
		this.server = createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (chunk: Buffer) => chunks.push(chunk));
			req.on('end', () => {
				const raw = Buffer.concat(chunks).toString('utf8');
				const signature = verifySignature({
					payload: raw,
					header: req.headers['x-multichannel-signature'],
					secrets: this.secrets,
				});
				let event: Received['event'];
				try {
					event = JSON.parse(raw) as Received['event'];
				} catch {
					event = { id: '', type: 'unparseable', createdAt: '', data: {} };
				}
				const delivery: Received = {
					path: req.url ?? '/',
					raw,
					headers: req.headers,
					event,
					attempt: Number(req.headers['x-multichannel-delivery-attempt']),
					signature,
				};
				this.received.push(delivery);
				const answer = signature.valid ? this.respond(delivery, this.received.length) : 401;
				const { status, delayMs } =
					typeof answer === 'number' ? { status: answer, delayMs: 0 } : answer;
				const deliveryId = req.headers[DELIVERY_ID_HEADER];
				const ack =
					this.acknowledge && status >= 200 && status < 300 && typeof deliveryId === 'string'
						? { [ACK_HEADER]: deliveryId }
						: {};
				const timer = setTimeout(() => {
					if (res.destroyed) return;
					delivery.status = status;
					res.writeHead(status, ack).end();
				}, delayMs);
				res.on('close', () => clearTimeout(timer));
			});
		});
		this.url = await listenOnLoopback(this.server, port);
		return this;
	}

	of(type: string): Received[] {
		return this.received.filter((delivery) => delivery.event.type === type);
	}

	waitForEvent(
		type: string,
		predicate: (delivery: Received) => boolean = () => true,
		timeoutMs = 5000,
	): Promise<Received> {
		return waitFor(() => this.of(type).find(predicate), timeoutMs, `a ${type} delivery`);
	}

	async close(): Promise<void> {
		const server = this.server;
		if (!server) return;
		this.server = undefined;
		await closeServer(server);
	}
}

export async function startReceiver(port = 0): Promise<Receiver> {
	return new Receiver().start(port);
}
