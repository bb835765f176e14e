/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code runs in plain Node, never inside n8n */
/**
 * Acknowledgements and claims as leases (SERVICE.md, 2026-11-25 "lifetime"), over real HTTP: a webhook that asks
 * for acknowledgements counts only an acknowledged 2xx as delivered; a claim lasts while the attempt that made it
 * is open, becomes final when that attempt is acknowledged and lapses when it fails, times out or its receiver
 * dies, so that the next attempt claims and runs the event; and neither a lease nor a used claim signature is
 * lost, or wrongly kept, across a restart of the service.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { closeServer, listenOnLoopback } from '../../dev/loopback';
import type { Sandbox } from '../../sandbox/server';
import { claimingReceiver, type Behaviour } from '../support/claiming-receiver';
import {
	claimSignature,
	clientsFor,
	raw,
	startReceiver,
	startTestSandbox,
	waitFor,
} from '../support/sandbox';

// Seconds, not milliseconds: a claim on a loaded 2-core machine can take most of a second.
const TIMEOUT_MS = 3000;
const CLAIMED_TIMEOUT_MS = 8000;
const options = {
	rateLimit: false as const,
	webhooks: {
		retryBaseMs: 20,
		maxRetryDelayMs: 100,
		timeoutMs: TIMEOUT_MS,
		claimedTimeoutMs: CLAIMED_TIMEOUT_MS,
		maxAttempts: 6,
	},
};

let sandbox: Sandbox;
let clients: ReturnType<typeof clientsFor>;
beforeAll(async () => {
	sandbox = await startTestSandbox(options);
	clients = clientsFor(sandbox.baseUrl, sandbox.keys!);
});
afterAll(() => sandbox.close());

/** A webhook at a claiming receiver (its path is the webhook's id), and the one event published to it. */
async function deliveredTo(
	behave: (attempt: number, nth: number) => Behaviour,
	requireAcknowledgement = true,
) {
	const receiver = await claimingReceiver(clients.automation, behave);
	const hook = await clients.automation.webhooks.create({
		body: { url: `${receiver.url}/pending`, events: ['*'], requireAcknowledgement },
	});
	await clients.automation.webhooks.update({
		webhookId: hook.id,
		body: { url: `${receiver.url}/${hook.id}` },
	});
	await clients.automation.events.publish({ body: { name: 'order.paid', payload: {} } });
	const delivery = await waitFor(
		() => sandbox.store.all('deliveries', (record) => record.webhookId === hook.id)[0],
		5000,
		'the delivery',
	);
	return { receiver, hook, delivery };
}

const settled = (delivery: { status: string }) =>
	waitFor(() => delivery.status !== 'pending' && delivery, 30_000, 'the delivery to end');

it('counts only an acknowledged 2xx as delivered when the webhook asks for it; a bare 200 is retried', async () => {
	const { receiver, hook, delivery } = await deliveredTo((attempt) =>
		attempt === 1 ? 'bare' : 'ack',
	);
	try {
		await settled(delivery);
		expect(delivery).toMatchObject({ status: 'succeeded', attempt: 2 });
		expect(delivery.attempts.map(({ responseStatus, error }) => [responseStatus, error])).toEqual([
			[200, 'HTTP 200 without an acknowledgement of this delivery'],
			[200, null],
		]);
		// The bare 200 came from the receiver that claimed: the event ran, its claim is final (an acknowledgement
		// lost on the way must not run it twice); the retry hears so and acknowledges.
		expect(receiver.claims.map(({ claimed, final }) => ({ claimed, final }))).toEqual([
			{ claimed: true, final: false },
			{ claimed: false, final: true },
		]);
		// Acknowledged, the claim is final: a redelivery now hears the event was taken.
		await raw(sandbox.baseUrl, 'POST', `/sandbox/webhooks/${hook.id}/redeliver`, {
			key: sandbox.keys!.workspace,
			body: { eventId: delivery.eventId },
		});
		expect(receiver.claims.at(-1)).toMatchObject({ claimed: false, final: true });
	} finally {
		await receiver.close();
	}
});

it('takes any 2xx from a webhook that does not ask for acknowledgements, and an acknowledgement in a JSON body', async () => {
	const plain = await deliveredTo(() => 'bare', false);
	try {
		expect(await settled(plain.delivery)).toMatchObject({ status: 'succeeded', attempt: 1 });
	} finally {
		await plain.receiver.close();
	}

	// A JSON body naming another delivery is no acknowledgement; naming this one is.
	const server = createServer((req, res) => {
		const deliveryId = String(req.headers['x-multichannel-delivery-id']);
		const attempt = Number(req.headers['x-multichannel-delivery-attempt']);
		req
			.resume()
			.on('end', () =>
				res
					.writeHead(200, { 'content-type': 'application/json' })
					.end(
						JSON.stringify({ acknowledged: attempt === 1 ? 'dlr_0000000000000000' : deliveryId }),
					),
			);
	});
	const url = await listenOnLoopback(server, 0);
	try {
		const hook = await clients.automation.webhooks.create({
			body: { url: `${url}/body`, events: ['*'], requireAcknowledgement: true },
		});
		await clients.automation.events.publish({ body: { name: 'order.paid', payload: {} } });
		const delivery = await waitFor(
			() => sandbox.store.all('deliveries', (record) => record.webhookId === hook.id)[0],
		);
		expect(await settled(delivery)).toMatchObject({ status: 'succeeded', attempt: 2 });
		expect(delivery.attempts[0].error).toMatch(/without an acknowledgement/);
	} finally {
		await closeServer(server);
	}
});

it('lapses the claim of an attempt whose receiver died after claiming: the next attempt claims and runs', async () => {
	const { receiver, delivery } = await deliveredTo((attempt) => (attempt === 1 ? 'crash' : 'ack'));
	try {
		expect(await settled(delivery)).toMatchObject({ status: 'succeeded', attempt: 2 });
		expect(receiver.claims.map(({ attempt, claimed }) => ({ attempt, claimed }))).toEqual([
			{ attempt: 1, claimed: true },
			{ attempt: 2, claimed: true },
		]);
	} finally {
		await receiver.close();
	}
});

it('refuses a claim made after its attempt timed out (409 attempt_closed); the next attempt claims and runs', async () => {
	// The first attempt claims 150 ms after the service gave up on it; the second claims later still (half its
	// timeout into it), so the first's claim finds no claim in its way, only its closed attempt.
	const late = { claimAfterMs: TIMEOUT_MS + 150, then: 'ack' as const };
	const { receiver, delivery } = await deliveredTo((attempt) =>
		attempt === 1 ? late : { claimAfterMs: TIMEOUT_MS / 2, then: 'ack' },
	);
	try {
		expect(await settled(delivery)).toMatchObject({ status: 'succeeded', attempt: 2 });
		await waitFor(() => receiver.claims.length === 2, 5000, 'both claims');
		expect(delivery.attempts[0].error).toMatch(/No answer within/);
		expect(
			receiver.claims.map(({ attempt, claimed, error }) => ({ attempt, claimed, error })),
		).toEqual([
			{ attempt: 1, claimed: undefined, error: 'attempt_closed' },
			{ attempt: 2, claimed: true, error: undefined },
		]);
	} finally {
		await receiver.close();
	}
});

it('waits longer for the answer of an attempt that claimed: a slow answer after the claim is taken, the event runs once', async () => {
	// An overloaded n8n: the claim comes at once, the answer (the execution started) twice the first timeout later.
	const { receiver, delivery } = await deliveredTo(() => ({
		answerAfterMs: TIMEOUT_MS * 2,
		then: 'ack',
	}));
	try {
		expect(await settled(delivery)).toMatchObject({ status: 'succeeded', attempt: 1 });
		expect(receiver.claims.map(({ attempt, claimed }) => ({ attempt, claimed }))).toEqual([
			{ attempt: 1, claimed: true },
		]);
	} finally {
		await receiver.close();
	}
});

it('lapses the lease of an attempt whose receiver claimed and then hung past the claimed timeout', async () => {
	const { receiver, delivery } = await deliveredTo((attempt) =>
		attempt === 1 ? { answerAfterMs: CLAIMED_TIMEOUT_MS + 1000, then: 'ack' } : 'ack',
	);
	try {
		expect(await settled(delivery)).toMatchObject({ status: 'succeeded', attempt: 2 });
		expect(delivery.attempts[0].error).toBe(
			`No answer within ${CLAIMED_TIMEOUT_MS} ms of its claim`,
		);
		expect(receiver.claims.map(({ attempt, claimed }) => ({ attempt, claimed }))).toEqual([
			{ attempt: 1, claimed: true },
			{ attempt: 2, claimed: true },
		]);
	} finally {
		await receiver.close();
	}
});

it('tells a copy delivered while another attempt holds the claim that it is not final yet', async () => {
	// The service's own attempt claims at once and answers once the copies have claimed. (Answering 400 ms later
	// instead, a redelivery slower by 350 ms, as through Prism on a loaded machine, came after its answer.)
	let copiesClaimed = () => {};
	const claimedMeanwhile = new Promise<void>((resolve) => (copiesClaimed = resolve));
	const { receiver, hook, delivery } = await deliveredTo((_attempt, nth) =>
		nth === 1 ? { answerAfter: claimedMeanwhile, then: 'ack' } : { claimAfterMs: 100, then: 'ack' },
	);
	try {
		await raw(sandbox.baseUrl, 'POST', `/sandbox/webhooks/${hook.id}/redeliver`, {
			key: sandbox.keys!.workspace,
			body: { eventId: delivery.eventId, copies: 2 },
		});
		await waitFor(() => receiver.claims.length === 3, 10_000, 'the claims of the copies');
		copiesClaimed();
		await settled(delivery);
		const answers = receiver.claims.map(({ claimed, final }) => `${claimed}/${final}`).sort();
		// One lease; the two others heard "taken, not final" (answered with an error, they lapse nothing).
		expect(answers.filter((answer) => answer.startsWith('true'))).toHaveLength(1);
		expect(answers).toContain('false/false');
	} finally {
		await receiver.close();
	}
});

describe('across a restart of the service', () => {
	const directory = mkdtempSync(join(tmpdir(), 'multichannel-leases-'));
	afterAll(() => rmSync(directory, { recursive: true, force: true }));

	it('a lease left open when the service stopped is kept, and a used claim signature stays used', async () => {
		const dataFile = join(directory, 'state.json');
		const first = await startTestSandbox({ ...options, dataFile });
		const keys = first.keys!;
		const receiver = await startReceiver();
		// The receiver claims, then runs the event and answers late: the service stops while the attempt is open.
		receiver.respond = () => ({ status: 200, delayMs: 60_000 });
		let hookId = '';
		let eventId = '';
		const signedBody = JSON.stringify({ eventId: 'evt_signed_once' });
		let signature = '';
		try {
			const hook = await clientsFor(first.baseUrl, keys).automation.webhooks.create({
				body: { url: `${receiver.url}/hold`, events: ['*'] },
			});
			receiver.secrets.push(hook.secret);
			hookId = hook.id;
			await clientsFor(first.baseUrl, keys).automation.events.publish({
				body: { name: 'order.paid', payload: {} },
			});
			const delivery = await waitFor(() => receiver.received[0], 5000, 'the delivery');
			eventId = delivery.event.id;
			await expect(
				clientsFor(first.baseUrl, keys).automation.webhooks.claimEvent({
					webhookId: hookId,
					body: { eventId, deliveryId: String(delivery.headers['x-multichannel-delivery-id']) },
				}),
			).resolves.toMatchObject({ claimed: true, final: false });
			// A signed claim (of an event the webhook was never sent, so that it is answered 404 and only the
			// replay check can answer 409): its signature is used from now on.
			const path = `/api/v1/automation/webhooks/${hookId}/signed-claims`;
			signature = claimSignature(hook.secret, path, signedBody);
			const answer = await raw(first.baseUrl, 'POST', path, {
				body: signedBody,
				headers: { 'x-multichannel-signature': signature },
			});
			expect(answer.status).toBe(404);
		} finally {
			await first.close();
			await receiver.close();
		}

		const second = await startTestSandbox({ ...options, dataFile });
		try {
			const path = `/api/v1/automation/webhooks/${hookId}/signed-claims`;
			const replay = await raw(second.baseUrl, 'POST', path, {
				body: signedBody,
				headers: { 'x-multichannel-signature': signature },
			});
			expect(replay).toMatchObject({ status: 409, body: { error: { code: 'claim_replayed' } } });

			// The receiver that claimed runs the event whatever became of its answer: the redelivery must not run
			// it again (a lapsed lease did: two executions in e2e/scheduled-crash.test.mjs).
			await expect(
				clientsFor(second.baseUrl, keys).automation.webhooks.claimEvent({
					webhookId: hookId,
					body: { eventId },
				}),
			).resolves.toMatchObject({ claimed: false, final: true });
		} finally {
			await second.close();
		}
	});
});
