/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- tests run in plain Node, never inside n8n */
import { createServer } from 'node:http';

import { ACK_HEADER, ConflictError, type AutomationClient } from '../../src/client';
import { closeServer, listenOnLoopback } from '../../dev/loopback';

/**
 * A receiver that does what an n8n trigger does with each delivery: claims its event at the service, naming the
 * delivery id, then answers as `behave` says for that attempt: `ack` (200 acknowledging it), `bare` (200 without
 * an acknowledgement, as a proxy or a server still starting), `crash` (the connection dropped), a status, or a
 * delay before the claim, or before the answer (a time, or until a promise settles). Its webhook is the path of
 * its URL (`/<webhookId>`).
 */
export type Behaviour =
	| 'ack'
	| 'bare'
	| 'crash'
	| number
	| {
			claimAfterMs?: number;
			answerAfterMs?: number;
			answerAfter?: Promise<unknown>;
			then: 'ack' | 'bare' | number;
	  };

export interface ClaimRecord {
	attempt: number;
	deliveryId: string;
	claimed?: boolean;
	final?: boolean;
	/** The error code of a refused claim. */
	error?: string;
}

export async function claimingReceiver(
	client: AutomationClient,
	/** `attempt` as the request says; `nth`: the how-manieth request this receiver got (1 first). */
	behave: (attempt: number, nth: number) => Behaviour,
) {
	const claims: ClaimRecord[] = [];
	let requests = 0;
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			void (async () => {
				const event = JSON.parse(Buffer.concat(chunks).toString()) as { id: string; type: string };
				const attempt = Number(req.headers['x-multichannel-delivery-attempt']);
				const deliveryId = String(req.headers['x-multichannel-delivery-id']);
				const webhookId = String(req.url).slice(1);
				const chosen = behave(attempt, ++requests);
				const wait = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));
				if (typeof chosen === 'object') await wait(chosen.claimAfterMs);
				const record: ClaimRecord = { attempt, deliveryId };
				if (event.type !== 'ping') {
					try {
						const answer = await client.webhooks.claimEvent({
							webhookId,
							body: { eventId: event.id, deliveryId },
						});
						Object.assign(record, { claimed: answer.claimed, final: answer.final });
					} catch (error) {
						record.error = error instanceof ConflictError ? error.code : String(error);
					}
					claims.push(record);
				}
				if (typeof chosen === 'object')
					await Promise.all([wait(chosen.answerAfterMs), chosen.answerAfter]);
				const behaviour = typeof chosen === 'object' ? chosen.then : chosen;
				if (res.destroyed) return;
				if (behaviour === 'crash') res.socket?.destroy();
				else if (behaviour === 'ack') res.writeHead(200, { [ACK_HEADER]: deliveryId }).end();
				else if (behaviour === 'bare') res.writeHead(200).end();
				else res.writeHead(behaviour).end();
			})();
		});
	});
	const url = await listenOnLoopback(server, 0);
	return { claims, url, close: () => closeServer(server) };
}
