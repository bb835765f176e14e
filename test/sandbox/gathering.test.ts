/* eslint-disable @n8n/community-nodes/no-restricted-imports -- tests run in plain Node, never inside n8n */
/**
 * Gathered messages in the sandbox, through real HTTP: a webhook registered with `gather` receives a person's
 * messages of one chat as one signed `message.received` event once the chat is quiet (or the cap is reached);
 * taps, own sends and statuses go out alone; bursts are bounded and survive a restart, delivered once.
 */
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { GatherOptions } from '../../src/client';
import { ANNA, BEN, openBursts, withService } from '../support/gathering';
import { startService, type TestService } from '../support/nodes';
import {
	raw,
	sleep,
	startReceiver,
	startTestSandbox,
	waitFor,
	type Receiver,
} from '../support/sandbox';

let receiver: Receiver;
beforeAll(async () => {
	receiver = await startReceiver();
});
afterAll(async () => await receiver.close());

/** A messaging webhook at its own receiver path. */
async function webhook(service: TestService, path: string, gather?: GatherOptions | null) {
	const created = await service.client.webhooks.create({
		body: {
			url: `${receiver.url}/${path}`,
			events: ['message.received', 'message.sent', 'message.delivered'],
			...(gather !== undefined ? { gather } : {}),
		},
	});
	receiver.secrets.push(created.secret);
	return created;
}

const at = (path: string) => receiver.received.filter((delivery) => delivery.path === `/${path}`);
const gatheredAt = (path: string) => at(path).filter((delivery) => delivery.event.data.gathered);

describe('gathered messages', () => {
	it('delivers a burst of one chat as one signed event, messages in order; another chat apart', async () => {
		// The sandbox's clock, held: the chat's pauses are the clock's steps. With real pauses, requests of over
		// 160 ms (a loaded machine, through Prism) ended Ben's quiet period before the last message was written.
		let clock = Date.now();
		await withService({ now: () => clock }, async (service, instanceId) => {
			await webhook(service, 'burst', { quietSeconds: 1, maxWaitSeconds: 30 });
			await webhook(service, 'alone');
			const sent = [];
			for (const [from, text] of [
				[ANNA, 'hi'],
				[BEN, 'hello'],
				[ANNA, 'I ordered yesterday'],
				[ANNA, 'where is it?'],
			]) {
				sent.push({ from, ...(await service.inbound(instanceId, from, text)) });
				clock += 200;
			}
			// 200 ms after Anna's last message, 600 ms after Ben's: both are held.
			expect(gatheredAt('burst')).toHaveLength(0);
			clock += 800;
			await waitFor(() => gatheredAt('burst').length === 2, 5000, 'two gathered events');
			await sleep(1200);
			const events = at('burst').filter((delivery) => delivery.event.type === 'message.received');
			expect(events).toHaveLength(2);
			expect(events.every((delivery) => delivery.signature.valid)).toBe(true);
			const anna = events.find((delivery) => delivery.event.data.from === ANNA)!.event;
			expect(anna.id).toMatch(/^evt_/);
			expect(anna.data).toMatchObject({
				gathered: true,
				instanceId,
				count: 3,
				messageIds: sent.filter((m) => m.from === ANNA).map((m) => m.id),
			});
			const messages = anna.data.messages as Array<Record<string, unknown>>;
			expect(messages.map((message) => (message.content as { text: string }).text)).toEqual([
				'hi',
				'I ordered yesterday',
				'where is it?',
			]);
			expect(messages[0]).toMatchObject({ direction: 'inbound', from: ANNA, type: 'text' });
			const ben = events.find((delivery) => delivery.event.data.from === BEN)!.event;
			expect(ben.data).toMatchObject({ gathered: true, count: 1 });
			// A webhook without `gather` receives each message alone, as before.
			expect(at('alone').filter((d) => d.event.type === 'message.received')).toHaveLength(4);
			expect(gatheredAt('alone')).toHaveLength(0);
		});
	});

	it('leaves out a message the contact deleted while it was held, and carries an edited one as edited', async () => {
		await withService({}, async (service, instanceId) => {
			await webhook(service, 'taken-back', { quietSeconds: 1, maxWaitSeconds: 30 });
			const act = async (messageId: string, what: string, body: unknown = {}) => {
				const path = `/sandbox/instances/${instanceId}/messages/${messageId}/${what}`;
				const answer = await raw(service.sandbox.baseUrl, 'POST', path, {
					key: service.apiKey,
					body,
				});
				expect(answer.status).toBeLessThan(300);
			};
			const kept = await service.inbound(instanceId, ANNA, 'I want 2');
			const wrong = await service.inbound(instanceId, ANNA, 'my card is 4111 1111 1111 1111');
			await act(wrong.id, 'delete');
			await act(kept.id, 'edit', { text: 'I want 3' });
			await waitFor(() => gatheredAt('taken-back').length === 1, 5000, 'the burst');
			const data = gatheredAt('taken-back')[0].event.data;
			expect(data).toMatchObject({ count: 1, messageIds: [kept.id] });
			const [message] = data.messages as Array<{ content: { text: string }; editedAt?: string }>;
			expect(message.content.text).toBe('I want 3');
			expect(message.editedAt).toEqual(expect.any(String));
		});
	});

	it('never holds own sends, statuses or taps; the gathered event is claimed once', async () => {
		await withService({}, async (service, instanceId) => {
			const hook = await webhook(service, 'mixed', { quietSeconds: 5 });
			const sent = await service.client.messages.sendButtons({
				instanceId,
				body: { to: ANNA, text: 'Pick', buttons: [{ id: 'yes', title: 'Yes' }] },
			});
			await service.tap(instanceId, sent.id, 'yes');
			await service.inbound(instanceId, ANNA, 'held');
			await waitFor(
				() => at('mixed').find((d) => d.event.type === 'message.delivered'),
				3000,
				'the status',
			);
			// The tap goes out at once, but its delivery may still be on its way after the status's.
			const tap = await waitFor(
				() => at('mixed').find((d) => d.event.type === 'message.received'),
				3000,
				'the tap',
			);
			const types = at('mixed').map((d) => d.event.type);
			expect(types).toContain('message.sent');
			expect(tap?.event.data).toMatchObject({ reply: { id: 'yes' } });
			expect(at('mixed').filter((d) => d.event.type === 'message.received')).toHaveLength(1);

			// Turning gathering off delivers what is held at once.
			await service.client.webhooks.update({ webhookId: hook.id, body: { gather: null } });
			const gathered = await waitFor(() => gatheredAt('mixed')[0], 3000, 'the flushed burst');
			expect(gathered.event.data).toMatchObject({ count: 1 });
			const claim = (eventId: string) =>
				service.client.webhooks.claimEvent({ webhookId: hook.id, body: { eventId } });
			expect((await claim(gathered.event.id)).claimed).toBe(true);
			expect((await claim(gathered.event.id)).claimed).toBe(false);
		});
	});

	it('delivers at the cap while the chat keeps writing, and at once when a burst is full', async () => {
		// The sandbox's clock, held: a message every 300 ms of it, however long the requests take.
		let clock = Date.now();
		await withService(
			{ now: () => clock, gathering: { maxMessages: 3 } },
			async (service, instanceId) => {
				await webhook(service, 'cap', { quietSeconds: 1, maxWaitSeconds: 1 });
				const started = clock;
				for (let index = 0; index < 5; index++) {
					await service.inbound(instanceId, ANNA, `m${index}`);
					clock += 300;
				}
				const first = await waitFor(() => gatheredAt('cap')[0], 3000, 'the first burst');
				expect(Date.parse(first.event.createdAt) - started).toBeLessThan(1600);
				// The second burst began at 900 ms: its cap ends at 1900, before the quiet end of its last message (2200).
				clock = started + 1900;
				await waitFor(() => gatheredAt('cap').length === 2, 3000, 'the second burst');
				const counts = gatheredAt('cap').map((d) => d.event.data.count as number);
				expect(counts.reduce((sum, count) => sum + count, 0)).toBe(5);
				expect(Math.max(...counts)).toBeLessThanOrEqual(3);
			},
		);
		await withService({ gathering: { maxMessages: 3 } }, async (service, instanceId) => {
			await webhook(service, 'full', { quietSeconds: 60 });
			for (const text of ['a', 'b', 'c']) await service.inbound(instanceId, ANNA, text);
			const full = await waitFor(() => gatheredAt('full')[0], 2000, 'the full burst');
			expect(full.event.data.count).toBe(3);
		});
	});

	it('keeps open bursts bounded: one over the limit delivers the oldest at once', async () => {
		await withService({ gathering: { maxOpenBursts: 2 } }, async (service, instanceId) => {
			await webhook(service, 'open', { quietSeconds: 60 });
			await service.inbound(instanceId, ANNA, 'first chat');
			await service.inbound(instanceId, BEN, 'second chat');
			expect(openBursts(service.sandbox.store)).toHaveLength(2);
			await service.inbound(instanceId, '+14155550183', 'third chat');
			const oldest = await waitFor(() => gatheredAt('open')[0], 2000, 'the oldest burst');
			expect(oldest.event.data.from).toBe(ANNA);
			expect(openBursts(service.sandbox.store)).toHaveLength(2);
		});
	});

	it('refuses bad gather options naming the field, and gather on other surfaces', async () => {
		await withService({}, async (service) => {
			const { sandbox, apiKey } = service;
			const register = (gather: unknown, path = '/api/v1/webhooks', key = apiKey) =>
				raw(sandbox.baseUrl, 'POST', path, {
					key,
					body: { url: `${receiver.url}/refused`, events: ['*'], gather },
				});
			for (const [gather, field] of [
				[{ quietSeconds: 0 }, 'body.gather.quietSeconds'],
				[{ quietSeconds: 61 }, 'body.gather.quietSeconds'],
				[{ quietSeconds: 1.5 }, 'body.gather.quietSeconds'],
				[{ quietSeconds: '3' }, 'body.gather.quietSeconds'],
				[{}, 'body.gather.quietSeconds'],
				[{ quietSeconds: 3, maxWaitSeconds: 301 }, 'body.gather.maxWaitSeconds'],
				[{ quietSeconds: 3, extra: 1 }, 'body.gather'],
				['3', 'body.gather'],
				[[{ quietSeconds: 3 }], 'body.gather'],
			] as const) {
				const answer = await register(gather);
				expect(answer.status).toBe(400);
				expect(JSON.stringify(answer.body)).toContain(field);
			}
			const links = await register(
				{ quietSeconds: 3 },
				'/api/v1/link-webhooks',
				sandbox.keys!.shortLink,
			);
			expect(links.status).toBe(400);
			const ok = await register({ quietSeconds: 3 });
			expect(ok.status).toBe(201);
			expect(ok.body).toMatchObject({ gather: { quietSeconds: 3, maxWaitSeconds: 60 } });
		});
	});
});

describe('gathered messages across a restart', () => {
	const directory = mkdtempSync(join(tmpdir(), 'sandbox-gather-'));
	afterAll(() => rmSync(directory, { recursive: true, force: true }));

	it('delivers a burst held when the sandbox stopped once, after it starts again', async () => {
		const dataFile = join(directory, 'state.json');
		// Its clock held: two messages and a close slower than the quiet period (2 s) would deliver the burst first.
		const heldAt = Date.now();
		const first = await startService({ dataFile, now: () => heldAt });
		const instanceId = (await first.connectedInstance('Gather')).id;
		await webhook(first, 'restart', { quietSeconds: 2 });
		const ids = [
			(await first.inbound(instanceId, ANNA, 'before')).id,
			(await first.inbound(instanceId, ANNA, 'the restart')).id,
		];
		const held = openBursts(first.sandbox.store);
		expect(held).toHaveLength(1);
		await first.close();
		expect(gatheredAt('restart')).toHaveLength(0);

		const second = await startTestSandbox({ dataFile });
		try {
			const gathered = await waitFor(() => gatheredAt('restart')[0], 4000, 'the held burst');
			expect(gathered.event.id).toBe(held[0].eventId);
			expect(gathered.event.data).toMatchObject({ count: 2, messageIds: ids });
			expect(second.store.all('bursts')).toHaveLength(0);
			await sleep(2500);
			expect(gatheredAt('restart')).toHaveLength(1);
		} finally {
			await second.close();
		}

		// Started again once more: nothing is held any longer, nothing is sent again.
		const third = await startTestSandbox({ dataFile });
		await sleep(500);
		await third.close();
		expect(gatheredAt('restart')).toHaveLength(1);
	});

	it('delivers a burst kept the earlier way (its messages inside it) under its id, and keeps it the new way', async () => {
		const dataFile = join(directory, 'earlier.json');
		const first = await startService({ dataFile });
		const instanceId = (await first.connectedInstance('Gather')).id;
		const hook = await webhook(first, 'earlier', { quietSeconds: 60 });
		const workspaceId = first.sandbox.workspaceId;
		await first.close();
		const message = (id: string, text: string) => ({
			id,
			direction: 'inbound',
			instanceId,
			chatId: ANNA,
			from: ANNA,
			type: 'text',
			content: { text },
		});
		// The second sandbox's clock, held until the burst is looked at: a start slower than its due time (1.5 s)
		// would have delivered it first.
		let clock = Date.now();
		const at = new Date(clock).toISOString();
		const burst = {
			...{ id: 'gth_00112233aabbccdd', workspaceId, webhookId: hook.id, instanceId, chatId: ANNA },
			messages: [message('msg_earlier_1', 'one'), message('msg_earlier_2', 'two')],
			...{ firstAt: at, lastAt: at, dueAt: new Date(clock + 1500).toISOString() },
		};
		appendFileSync(dataFile, `${JSON.stringify([['bursts', burst.id, burst]])}\n`);

		const second = await startTestSandbox({ dataFile, now: () => clock });
		try {
			expect(openBursts(second.store)).toMatchObject([
				{ eventId: 'evt_00112233aabbccdd', count: 2 },
			]);
			clock += 1500;
			const gathered = await waitFor(() => gatheredAt('earlier')[0], 5000, 'the earlier burst');
			expect(gathered.event.id).toBe('evt_00112233aabbccdd');
			expect(gathered.event.data).toMatchObject({
				count: 2,
				messageIds: ['msg_earlier_1', 'msg_earlier_2'],
			});
			expect(second.store.all('bursts')).toHaveLength(0);
		} finally {
			await second.close();
		}
	});
});
