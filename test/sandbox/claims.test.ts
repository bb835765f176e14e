/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code runs in plain Node, never inside n8n */
/**
 * Event claims at the sandbox: the first claim of an event id at a webhook wins, a retry of that claim (same
 * Idempotency-Key) still wins, every other claim loses; claims outlive a redelivery by far, then go, so that
 * memory stays bounded. And the sandbox-only redelivery that the end-to-end tests use.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { CLAIM_RETENTION_MS } from '../../sandbox/delivery/leases';
import {
	clientsFor,
	directUrl,
	raw,
	recordDelivery,
	sandboxWithReceiver,
	waitFor,
} from '../support/sandbox';

let nowMs = Date.now();
const suite = sandboxWithReceiver({ now: () => nowMs, rateLimit: false });

async function automationWebhook(path = 'claims') {
	const created = await suite.clients.automation.webhooks.create({
		body: { url: `${suite.receiver.url}/${path}`, events: ['*'] },
	});
	suite.receiver.secrets.push(created.secret);
	return created;
}

const claimPath = (webhookId: string) => `/api/v1/automation/webhooks/${webhookId}/claims`;

/** Publishes an automation event: the service delivers it to every automation webhook; its event id. */
async function publishedEvent(): Promise<string> {
	await suite.clients.automation.events.publish({ body: { name: 'order.created', payload: {} } });
	return (suite.sandbox.events.at(-1) as { id: string }).id;
}

it('gives an event id to its first claim only, per webhook', async () => {
	const [one, two] = [await automationWebhook(), await automationWebhook()];
	const claim = (webhookId: string, eventId: string) =>
		suite.clients.automation.webhooks.claimEvent({ webhookId, body: { eventId } });

	const [a, b] = [await publishedEvent(), await publishedEvent()];

	const first = await claim(one.id, a);
	expect(first).toMatchObject({ eventId: a, claimed: true });
	expect(await claim(one.id, a)).toEqual({ ...first, claimed: false });
	expect(await claim(one.id, b)).toMatchObject({ claimed: true });
	expect(await claim(two.id, a)).toMatchObject({ claimed: true });
});

it('refuses a claim of an event id never delivered to that webhook (404 unknown_event), and takes nothing', async () => {
	const hook = await automationWebhook();
	const eventId = await publishedEvent();
	const later = await automationWebhook();
	const refused = (webhookId: string, id: string) =>
		raw(suite.sandbox.baseUrl, 'POST', claimPath(webhookId), {
			key: suite.keys.automation,
			body: { eventId: id },
		});

	for (const answer of [
		await refused(hook.id, 'evt_0123456789abcdef'),
		await refused(later.id, eventId),
	]) {
		expect(answer).toMatchObject({ status: 404, body: { error: { code: 'unknown_event' } } });
	}
	expect(suite.sandbox.store.all('claims', (claim) => claim.webhookId === later.id)).toEqual([]);
	expect((await refused(hook.id, eventId)).body).toMatchObject({ claimed: true });
});

it('takes a claim of an event announced as delivered by someone else (a benchmark signing its own deliveries)', async () => {
	const hook = await automationWebhook();
	const claimOf = (eventId: string) =>
		raw(suite.sandbox.baseUrl, 'POST', claimPath(hook.id), {
			key: suite.keys.automation,
			body: { eventId },
		});
	expect((await claimOf('evt_bench_1')).status).toBe(404);
	const announce = (key: string) =>
		raw(suite.sandbox.baseUrl, 'POST', `/sandbox/webhooks/${hook.id}/announced-deliveries`, {
			key,
			body: { eventIds: ['evt_bench_1'] },
		});

	// A messaging key cannot make an automation webhook take a claim of an event it never delivered.
	const messaging = suite.sandbox.issueKey({ kind: 'workspace' }).key;
	expect(await announce(messaging)).toMatchObject({
		status: 403,
		body: {
			error: { code: 'insufficient_scope', message: expect.stringContaining('automation:write') },
		},
	});
	expect((await claimOf('evt_bench_1')).status).toBe(404);

	// The seeded workspace key holds every scope, the automation surface's too.
	const announced = await announce(suite.keys.workspace);
	expect(announced).toMatchObject({ status: 200, body: { webhookId: hook.id, announced: 1 } });
	expect((await claimOf('evt_bench_1')).body).toMatchObject({ claimed: true });
	expect((await claimOf('evt_bench_2')).status).toBe(404);
});

it('answers a retried claim (same Idempotency-Key) as it answered the first, so a lost answer loses nothing', async () => {
	const hook = await automationWebhook();
	const eventId = await publishedEvent();
	const send = (idempotencyKey: string) =>
		raw(suite.sandbox.baseUrl, 'POST', claimPath(hook.id), {
			key: suite.keys.automation,
			body: { eventId },
			headers: { 'idempotency-key': idempotencyKey },
		});
	expect((await send('receipt-1')).body).toMatchObject({ claimed: true });
	const retry = await send('receipt-1');
	expect(retry.body).toMatchObject({ claimed: true });
	expect(retry.headers['idempotency-replayed']).toBe('true');
	expect((await send('receipt-2')).body).toMatchObject({ claimed: false });
});

it('refuses claims at unknown webhooks, of other surfaces, and without the write scope', async () => {
	const hook = await automationWebhook();
	const body = { eventId: 'evt_x' };
	expect(
		(
			await raw(suite.sandbox.baseUrl, 'POST', claimPath('wh_unknown'), {
				key: suite.keys.automation,
				body,
			})
		).status,
	).toBe(404);
	expect(
		(
			await raw(suite.sandbox.baseUrl, 'POST', `/api/v1/webhooks/${hook.id}/claims`, {
				key: suite.keys.workspace,
				body,
			})
		).status,
	).toBe(404);
	const readOnly = suite.sandbox.issueKey({ kind: 'automation', scopes: ['automation:read'] });
	expect(
		(await raw(suite.sandbox.baseUrl, 'POST', claimPath(hook.id), { key: readOnly.key, body }))
			.status,
	).toBe(403);
	expect(
		(
			await raw(suite.sandbox.baseUrl, 'POST', claimPath(hook.id), {
				key: suite.keys.automation,
				body: {},
			})
		).body,
	).toMatchObject({ error: { details: [{ field: 'body.eventId' }] } });
});

it('keeps claims for the retention time only, so 10,000 events leave no lasting state', async () => {
	const hook = await automationWebhook();
	const claimsOf = () => suite.sandbox.store.all('claims', (claim) => claim.webhookId === hook.id);
	// Straight to the sandbox even under `npm run test:contract`: 10,000 alike claims say no more about the
	// contract than the others of this file, and would take minutes through Prism.
	const { automation } = clientsFor(directUrl(suite.sandbox), suite.keys);
	for (let index = 0; index < 10_000; index++)
		recordDelivery(suite.sandbox, hook.id, `evt_burst_${index}`);
	recordDelivery(suite.sandbox, hook.id, 'evt_after');
	// 50 at a time: one by one, a loaded machine took over the test's two minutes.
	for (let start = 0; start < 10_000; start += 50) {
		await Promise.all(
			Array.from({ length: 50 }, (_, offset) =>
				automation.webhooks.claimEvent({
					webhookId: hook.id,
					body: { eventId: `evt_burst_${start + offset}` },
				}),
			),
		);
	}
	expect(claimsOf()).toHaveLength(10_000);

	nowMs += CLAIM_RETENTION_MS - 1000;
	expect(
		await suite.clients.automation.webhooks.claimEvent({
			webhookId: hook.id,
			body: { eventId: 'evt_burst_0' },
		}),
	).toMatchObject({ claimed: false });

	nowMs += 2000;
	await suite.clients.automation.webhooks.claimEvent({
		webhookId: hook.id,
		body: { eventId: 'evt_after' },
	});
	expect(claimsOf().map((claim) => claim.eventId)).toEqual(['evt_after']);
}, 120_000);

it('forgets the claims of a deleted webhook', async () => {
	const hook = await automationWebhook();
	await suite.clients.automation.webhooks.claimEvent({
		webhookId: hook.id,
		body: { eventId: await publishedEvent() },
	});
	expect(suite.sandbox.store.all('claims', (claim) => claim.webhookId === hook.id)).toHaveLength(1);
	await suite.clients.automation.webhooks.delete({ webhookId: hook.id });
	expect(suite.sandbox.store.all('claims', (claim) => claim.webhookId === hook.id)).toEqual([]);
});

it('redelivers an event on request, several copies at once, each freshly signed', async () => {
	const hook = await automationWebhook('redeliver');
	const published = await suite.clients.automation.events.publish({
		body: { name: 'order.created', payload: { n: 1 } },
	});
	const first = await waitFor(
		() => suite.receiver.received.find((delivery) => delivery.path === '/redeliver'),
		5000,
		'the first delivery',
	);
	expect(first.event.data).toMatchObject({ id: published.id });

	const answer = await raw(
		suite.sandbox.baseUrl,
		'POST',
		`/sandbox/webhooks/${hook.id}/redeliver`,
		{
			key: suite.keys.workspace,
			body: { eventId: first.event.id, copies: 3 },
		},
	);
	expect(answer).toMatchObject({
		status: 200,
		body: { eventId: first.event.id, webhookId: hook.id, statuses: [200, 200, 200] },
	});
	const all = suite.receiver.received.filter((delivery) => delivery.path === '/redeliver');
	expect(all).toHaveLength(4);
	expect(all.every((delivery) => delivery.event.id === first.event.id)).toBe(true);
	expect(all.every((delivery) => delivery.signature.valid)).toBe(true);

	const unknown = await raw(
		suite.sandbox.baseUrl,
		'POST',
		`/sandbox/webhooks/${hook.id}/redeliver`,
		{
			key: suite.keys.workspace,
			body: { eventId: 'evt_never' },
		},
	);
	expect(unknown.status).toBe(404);
});

/**
 * A receiver that claims each delivery's event (naming its delivery id, as the triggers do) and then answers
 * with the status `answer` gives for that attempt, as n8n does when it cannot start an execution.
 */
async function claimingReceiver(answer: (attempt: number) => number) {
	const claims: Array<{ attempt: number; claimed: boolean }> = [];
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			void (async () => {
				const event = JSON.parse(Buffer.concat(chunks).toString()) as { id: string };
				const attempt = Number(req.headers['x-multichannel-delivery-attempt']);
				const webhookId = String(req.url).slice(1);
				const { claimed } = await suite.clients.automation.webhooks.claimEvent({
					webhookId,
					body: {
						eventId: event.id,
						deliveryId: String(req.headers['x-multichannel-delivery-id']),
					},
				});
				claims.push({ attempt, claimed });
				res.writeHead(answer(attempt)).end();
			})();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return { claims, url, close: () => new Promise((resolve) => server.close(resolve)) };
}

it('releases a claim whose request got an error status back, so the next attempt runs the event', async () => {
	const receiver = await claimingReceiver((attempt) => (attempt === 1 ? 500 : 200));
	try {
		const hook = await suite.clients.automation.webhooks.create({
			body: { url: `${receiver.url}/pending`, events: ['*'] },
		});
		await suite.clients.automation.webhooks.update({
			webhookId: hook.id,
			body: { url: `${receiver.url}/${hook.id}` },
		});
		await suite.clients.automation.events.publish({ body: { name: 'order.created', payload: {} } });
		await waitFor(() => receiver.claims.length >= 2, 5000, 'the second attempt');
		// The first attempt's claim went with its 500, so the second attempt claimed the event.
		expect(receiver.claims).toEqual([
			{ attempt: 1, claimed: true },
			{ attempt: 2, claimed: true },
		]);
		// A successful answer keeps the claim: a redelivery now is a duplicate.
		const [delivery] = suite.sandbox.store.all(
			'deliveries',
			(record) => record.webhookId === hook.id,
		);
		await waitFor(() => delivery.status === 'succeeded', 5000, 'the delivery to succeed');
		await raw(suite.sandbox.baseUrl, 'POST', `/sandbox/webhooks/${hook.id}/redeliver`, {
			key: suite.keys.workspace,
			body: { eventId: delivery.eventId },
		});
		expect(receiver.claims.at(-1)).toEqual({ attempt: 3, claimed: false });
	} finally {
		await receiver.close();
	}
});
