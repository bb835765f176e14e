/* eslint-disable @n8n/community-nodes/no-restricted-imports -- tests run in plain Node, never inside n8n */
/**
 * Batched deliveries in the sandbox, through real HTTP: a short-link or automation webhook registered with `batch`
 * receives its events, after its filters, as one signed batch event at N events or T seconds, whichever first;
 * claimed once, redelivered whole, kept across restarts (open, and pending delivery); refused on messaging. It
 * also closes before its body would pass 4 MiB, and a timer that fires before it is due is set again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { BATCH_MAX_BYTES } from '../../src/client/resources/batches';
import {
	automationWebhook,
	batchesAt,
	click,
	eventsOf,
	openBatches,
	publish,
	startBatchSandbox,
} from '../support/batches';
import { raw, sleep, startReceiver, waitFor, type Receiver } from '../support/sandbox';

let receiver: Receiver;
beforeAll(async () => {
	receiver = await startReceiver();
});
afterAll(async () => await receiver.close());
afterEach(() => {
	receiver.respond = () => 200;
});

describe('batched deliveries', () => {
	it('delivers N events as one signed batch event, in order, each as it would be delivered alone', async () => {
		const { sandbox, clients } = await startBatchSandbox();
		try {
			await automationWebhook(clients, receiver, 'n', { maxEvents: 3, maxWaitSeconds: 300 });
			await automationWebhook(clients, receiver, 'alone', null);
			await publish(clients, [1, 2, 3, 4, 5, 6, 7]);
			await waitFor(() => batchesAt(receiver, 'n').length === 2, 10_000, 'two full batches');
			const [first, second] = batchesAt(receiver, 'n');
			expect(first.signature.valid).toBe(true);
			expect(first.event).toMatchObject({ type: 'automation.batch', batch: true });
			expect(first.event.id).toMatch(/^evt_/);
			expect(first.headers['x-multichannel-event-id']).toBe(first.event.id);
			expect(first.event.data.count).toBe(3);
			const numbers = [...eventsOf(first), ...eventsOf(second)].map((event) => event.data.payload);
			expect(numbers).toEqual([1, 2, 3, 4, 5, 6].map((n) => ({ n })));
			// Each exactly as the webhook without batches received it alone.
			await waitFor(
				() => receiver.received.filter((d) => d.path === '/alone').length === 7,
				10_000,
				'the 7',
			);
			const alone = receiver.received.filter((d) => d.path === '/alone').map((d) => d.event);
			expect(eventsOf(first)).toEqual(alone.slice(0, 3));
			// The 7th waits in the open batch, kept in the store.
			expect(openBatches(sandbox.store)).toHaveLength(1);
			expect(openBatches(sandbox.store)[0].count).toBe(1);
		} finally {
			await sandbox.close();
		}
	});

	it('delivers after T seconds what it holds; filters (links, events) apply per event first', async () => {
		// The sandbox's clock, held while the clicks come: requests 700 ms slow (a loaded machine) split the batch.
		let clock = Date.now();
		const { sandbox, clients } = await startBatchSandbox({ now: () => clock });
		try {
			const chosen = await clients.shortLink.links.create({
				body: { url: 'https://example.com/a' },
			});
			const other = await clients.shortLink.links.create({
				body: { url: 'https://example.com/b' },
			});
			const hook = await clients.shortLink.webhooks.create({
				body: {
					url: `${receiver.url}/t`,
					events: ['link.clicked'],
					filters: { linkIds: [chosen.id] },
					batch: { maxEvents: 1000, maxWaitSeconds: 2 },
				},
			});
			receiver.secrets.push(hook.secret);
			expect(hook.batch).toEqual({ maxEvents: 1000, maxWaitSeconds: 2 });
			await click(sandbox, chosen.code!);
			await click(sandbox, other.code!);
			await clients.shortLink.links.update({ linkId: chosen.id, body: { title: 'not a click' } });
			await click(sandbox, chosen.code!);
			clock += 2000;
			const batch = await waitFor(() => batchesAt(receiver, 't')[0], 10_000, 'the batch at T');
			expect(batch.event.type).toBe('link.batch');
			const events = eventsOf(batch);
			expect(events.map((event) => event.type)).toEqual(['link.clicked', 'link.clicked']);
			expect(events.map((event) => (event.data.link as { id: string }).id)).toEqual([
				chosen.id,
				chosen.id,
			]);
			expect(
				Date.parse(batch.event.createdAt) - Date.parse(events[0].createdAt),
			).toBeGreaterThanOrEqual(1900);
			expect(openBatches(sandbox.store)).toHaveLength(0);
		} finally {
			await sandbox.close();
		}
	});

	it('is claimed once, as one event, and redelivered whole, the same bytes', async () => {
		const { sandbox, clients } = await startBatchSandbox({ webhooks: { retryBaseMs: 200 } });
		try {
			const hook = await automationWebhook(clients, receiver, 'again', {
				maxEvents: 2,
				maxWaitSeconds: 300,
			});
			receiver.respond = (delivery) => (delivery.attempt === 1 ? 500 : 200);
			await publish(clients, [1, 2]);
			await waitFor(() => batchesAt(receiver, 'again').length === 2, 10_000, 'the retry');
			const [first, retry] = batchesAt(receiver, 'again');
			expect(retry.attempt).toBe(2);
			expect(retry.raw).toBe(first.raw);
			const claim = (eventId: string) =>
				clients.automation.webhooks.claimEvent({ webhookId: hook.id, body: { eventId } });
			expect((await claim(first.event.id)).claimed).toBe(true);
			expect((await claim(first.event.id)).claimed).toBe(false);
			// The events inside were never delivered alone: there is nothing of theirs to claim.
			await expect(claim(eventsOf(first)[0].id)).rejects.toMatchObject({ status: 404 });
		} finally {
			await sandbox.close();
		}
	});

	it('is refused by a messaging webhook, in words naming the field', async () => {
		const { sandbox } = await startBatchSandbox();
		try {
			const answer = await raw(sandbox.baseUrl, 'POST', '/api/v1/webhooks', {
				key: sandbox.keys!.workspace,
				body: {
					url: `${receiver.url}/messaging`,
					events: ['message.received'],
					batch: { maxEvents: 10, maxWaitSeconds: 5 },
				},
			});
			expect(answer.status).toBe(400);
			expect(JSON.stringify(answer.body)).toContain('body.batch');
			expect(JSON.stringify(answer.body)).toContain('gather');
		} finally {
			await sandbox.close();
		}
	});
});

describe('bounds beside the count: bytes, and a timer that fired early', () => {
	it('closes a batch before its body would pass 4 MiB; an event larger than that goes alone', async () => {
		const { sandbox, clients } = await startBatchSandbox();
		try {
			await automationWebhook(clients, receiver, 'bytes', { maxEvents: 1000, maxWaitSeconds: 300 });
			// 60 KB each (a payload's most is 64 KiB): 69 fill a batch short of 4 MiB, a 70th would take it past.
			for (let n = 1; n <= 70; n++) {
				await clients.automation.events.publish({
					body: { name: `big.n${n}`, payload: { n, filler: 'x'.repeat(60_000) } },
				});
			}
			// No request makes an event this large; an event the service made could.
			const payload = { n: 71, filler: 'x'.repeat(4.5 * 1024 * 1024) };
			sandbox.core.emit(sandbox.workspaceId, 'automation.huge', { name: 'huge', payload });
			sandbox.save();

			await waitFor(() => openBatches(sandbox.store).length === 0, 10_000, 'every batch closed');
			const batches = await waitFor(
				() =>
					batchesAt(receiver, 'bytes').length === 3 ? batchesAt(receiver, 'bytes') : undefined,
				10_000,
				'three batches',
			);
			// Delivered side by side: a small batch may arrive before a large one.
			const numbers = batches
				.map((delivery) => eventsOf(delivery).map((held) => (held.data.payload as { n: number }).n))
				.sort((a, b) => a[0] - b[0]);
			const upTo = (last: number) => Array.from({ length: last }, (_, index) => index + 1);
			expect(numbers).toEqual([upTo(69), [70], [71]]);
			const sizes = batches
				.map((delivery) => Buffer.byteLength(delivery.raw))
				.sort((a, b) => a - b);
			expect(sizes[1]).toBeLessThanOrEqual(BATCH_MAX_BYTES);
			expect(sizes[1]).toBeGreaterThan(BATCH_MAX_BYTES - 100_000);
			expect(sizes[2]).toBeGreaterThan(BATCH_MAX_BYTES);
		} finally {
			await sandbox.close();
		}
	});

	it('delivers a batch whose timer fired early once it is due, with what joined it', async () => {
		let shiftMs = 0;
		const { sandbox, clients } = await startBatchSandbox({ now: () => Date.now() + shiftMs });
		try {
			await automationWebhook(clients, receiver, 'early', { maxEvents: 100, maxWaitSeconds: 1 });
			await publish(clients, [1]);
			// The clock moves back: the timer, set for 1 s, finds the batch 1 s short of due.
			shiftMs -= 1000;
			await publish(clients, [2]);
			const batch = await waitFor(
				() => batchesAt(receiver, 'early')[0],
				5000,
				'the batch, when due',
			);
			expect(eventsOf(batch).map((held) => held.data.payload)).toEqual([{ n: 1 }, { n: 2 }]);
			expect(openBatches(sandbox.store)).toHaveLength(0);
		} finally {
			await sandbox.close();
		}
	});
});

describe('batches across a restart', () => {
	const directory = mkdtempSync(join(tmpdir(), 'sandbox-batches-'));
	afterAll(() => rmSync(directory, { recursive: true, force: true }));

	it('delivers a batch still open when the sandbox stopped once, after it starts again', async () => {
		const dataFile = join(directory, 'open.json');
		// Its clock held: a publish and a close slower than T (2 s; a loaded machine) would deliver the batch first.
		const heldAt = Date.now();
		const first = await startBatchSandbox({ dataFile, now: () => heldAt });
		await automationWebhook(first.clients, receiver, 'open', { maxEvents: 100, maxWaitSeconds: 2 });
		await publish(first.clients, [1, 2]);
		const held = openBatches(first.sandbox.store);
		expect(held).toHaveLength(1);
		await first.sandbox.close();
		expect(batchesAt(receiver, 'open')).toHaveLength(0);

		const second = await startBatchSandbox({ dataFile }, first.keys);
		try {
			const batch = await waitFor(() => batchesAt(receiver, 'open')[0], 10_000, 'the open batch');
			expect(batch.event.id).toBe(held[0].eventId);
			expect(eventsOf(batch).map((event) => event.data.payload)).toEqual([{ n: 1 }, { n: 2 }]);
			expect(second.sandbox.store.all('batches')).toHaveLength(0);
			// Closed only once the sandbox has taken the answer: an attempt cut by the close is sent again.
			await waitFor(
				() => second.sandbox.store.all('deliveries').every((d) => d.status === 'succeeded'),
				10_000,
				'the delivery settled',
			);
		} finally {
			await second.sandbox.close();
		}
		const third = await startBatchSandbox({ dataFile }, first.keys);
		await sleep(500);
		await third.sandbox.close();
		expect(batchesAt(receiver, 'open')).toHaveLength(1);
		expect(third.sandbox.store.all('batches')).toHaveLength(0);
	});

	it('delivers a batch whose delivery was pending, whole, under its id, after a restart', async () => {
		const dataFile = join(directory, 'pending.json');
		const options = { dataFile, webhooks: { retryBaseMs: 1500 } };
		const first = await startBatchSandbox(options);
		await automationWebhook(first.clients, receiver, 'pending', {
			maxEvents: 3,
			maxWaitSeconds: 300,
		});
		receiver.respond = () => 503;
		await publish(first.clients, [1, 2, 3]);
		const refused = await waitFor(
			() => batchesAt(receiver, 'pending')[0],
			10_000,
			'the first attempt',
		);
		await first.sandbox.close();
		receiver.respond = () => 200;

		const second = await startBatchSandbox(options, first.keys);
		try {
			await waitFor(
				() => batchesAt(receiver, 'pending').some((delivery) => delivery.status === 200),
				15_000,
				'the batch delivered after the restart',
			);
			const attempts = batchesAt(receiver, 'pending');
			expect(new Set(attempts.map((delivery) => delivery.raw)).size).toBe(1);
			expect(attempts.every((delivery) => delivery.event.id === refused.event.id)).toBe(true);
			expect(eventsOf(attempts.at(-1)!).map((event) => event.data.payload)).toEqual(
				[1, 2, 3].map((n) => ({ n })),
			);
		} finally {
			await second.sandbox.close();
		}
	});
});
