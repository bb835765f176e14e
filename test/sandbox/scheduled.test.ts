/* eslint-disable @n8n/community-nodes/no-restricted-imports -- tests run in plain Node, never inside n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Sandbox } from '../../sandbox/server';
import { clientsFor, connectedInstance, raw, startTestSandbox, waitFor } from '../support/sandbox';

/**
 * Scheduled sends (`sendAt`): answered at once in status `scheduled`, sent at their time as a send made then, kept
 * across a restart of the sandbox on its data file, and a time missed while it was down sent on start with
 * `late: true`. The clock is the test's, moved ahead by hand; the sandbox looks for due sends every 50 ms.
 */

const MINUTE = 60_000;
const at = (ms: number) => new Date(ms).toISOString();
/** Waits for the sandbox to announce this scheduled send gone (`message.scheduled_sent`). */
const scheduledSent = (sandbox: Sandbox, messageId: string) =>
	waitFor(
		() =>
			sandbox.events.some(
				(event) =>
					event.type === 'message.scheduled_sent' &&
					(event.data as { id: string }).id === messageId,
			),
		10_000,
	);

describe('scheduled sends', () => {
	const directory = mkdtempSync(join(tmpdir(), 'sandbox-scheduled-'));
	afterAll(() => rmSync(directory, { recursive: true, force: true }));
	let clock = Date.parse('2026-11-26T09:00:00Z');
	const start = (dataFile?: string) =>
		startTestSandbox({
			now: () => clock,
			rateLimit: false,
			scheduled: { tickMs: 50, pendingPerWorkspace: 3, finishedPerWorkspace: 2 },
			...(dataFile ? { dataFile } : {}),
		});

	it('answers at once, sends at its time with the usual events, lists and cancels', async () => {
		const sandbox = await start();
		try {
			const client = clientsFor(sandbox.baseUrl, sandbox.keys as never).workspace;
			const instance = await connectedInstance(sandbox, 'Sales', '+14155550100');
			const scheduled = await client.messages.sendText({
				instanceId: instance.id,
				body: {
					to: '+14155550123',
					text: 'Your appointment is tomorrow',
					sendAt: at(clock + 5 * MINUTE),
				},
			});
			expect(scheduled).toMatchObject({ status: 'scheduled', sendAt: at(clock + 5 * MINUTE) });
			const other = await client.messages.sendText({
				instanceId: instance.id,
				body: { to: '+14155550124', text: 'Later', sendAt: at(clock + 10 * MINUTE) },
			});
			expect(sandbox.events.filter((event) => event.type === 'message.sent')).toHaveLength(0);
			const listed = await client.scheduledMessages.list({ instanceId: instance.id });
			expect(listed.data.map((message) => message.id)).toEqual([scheduled.id, other.id]);
			// One chat's, named by the person's number or by the chat id.
			for (const chatId of ['+14155550124', '14155550124@s.whatsapp.net']) {
				const ofChat = await client.scheduledMessages.list({
					instanceId: instance.id,
					query: { chatId },
				});
				expect(ofChat.data.map((message) => message.id)).toEqual([other.id]);
			}
			// A scheduled send is a message before it goes: Get answers it as it stands.
			expect(
				await client.messages.get({ instanceId: instance.id, messageId: other.id }),
			).toMatchObject({
				id: other.id,
				status: 'scheduled',
				sendAt: at(clock + 10 * MINUTE),
			});

			const cancelled = await client.scheduledMessages.cancel({
				instanceId: instance.id,
				messageId: other.id,
			});
			expect(cancelled).toMatchObject({ status: 'cancelled' });
			const again = await raw(
				sandbox.baseUrl,
				'POST',
				`/api/v1/instances/${instance.id}/scheduled-messages/${other.id}/cancel`,
				{ key: (sandbox.keys as { workspace: string }).workspace },
			);
			expect(again.status).toBe(409);
			expect(JSON.stringify(again.body)).toContain('already_cancelled');

			clock += 5 * MINUTE;
			await waitFor(
				() => sandbox.events.some((event) => event.type === 'message.scheduled_sent'),
				10_000,
			);
			const types = sandbox.events.map((event) => event.type);
			expect(types.indexOf('message.sent')).toBeLessThan(types.indexOf('message.scheduled_sent'));
			const sent = await client.messages.get({ instanceId: instance.id, messageId: scheduled.id });
			expect(sent).toMatchObject({
				status: expect.stringMatching(/sent|delivered|read/),
				sendAt: scheduled.sendAt,
			});
			expect(sent.late).toBeUndefined();
			const tooLate = await raw(
				sandbox.baseUrl,
				'POST',
				`/api/v1/instances/${instance.id}/scheduled-messages/${scheduled.id}/cancel`,
				{ key: (sandbox.keys as { workspace: string }).workspace },
			);
			expect(tooLate.status).toBe(409);
			expect(JSON.stringify(tooLate.body)).toContain('already_sent');
			// The cancelled one never went: a later one, due after it, went alone.
			const marker = await client.messages.sendText({
				instanceId: instance.id,
				body: { to: '+14155550125', text: 'Marker', sendAt: at(clock + 11 * MINUTE) },
			});
			clock += 15 * MINUTE;
			await scheduledSent(sandbox, marker.id);
			const sentIds = sandbox.events
				.filter((event) => event.type === 'message.sent')
				.map((event) => (event.data as { id: string }).id);
			expect(sentIds).toEqual([scheduled.id, marker.id]);
		} finally {
			await sandbox.close();
		}
	});

	it('sandbox only: due now sends a scheduled send at the next check, as at its time; a sent one says so', async () => {
		const sandbox = await start();
		try {
			const client = clientsFor(sandbox.baseUrl, sandbox.keys as never).workspace;
			const instance = await connectedInstance(sandbox, 'Sales', '+14155550100');
			const scheduled = await client.messages.sendText({
				instanceId: instance.id,
				body: { to: '+14155550126', text: 'Soon', sendAt: at(clock + 30 * MINUTE) },
			});
			const dueNow = (messageId: string) =>
				raw(
					sandbox.baseUrl,
					'POST',
					`/sandbox/instances/${instance.id}/scheduled-messages/${messageId}/due-now`,
					{ key: (sandbox.keys as { workspace: string }).workspace },
				);
			const due = await dueNow(scheduled.id);
			expect(due.status).toBe(200);
			expect(due.body).toMatchObject({ id: scheduled.id, status: 'scheduled', sendAt: at(clock) });
			// The sandbox's clock stands still: only the time of the send moved.
			await scheduledSent(sandbox, scheduled.id);
			const sent = await client.messages.get({ instanceId: instance.id, messageId: scheduled.id });
			expect(sent).toMatchObject({
				status: expect.stringMatching(/sent|delivered|read/),
				sendAt: at(clock),
			});
			expect(sent.late).toBeUndefined();
			const again = await dueNow(scheduled.id);
			expect(again.status).toBe(409);
			expect(JSON.stringify(again.body)).toContain('already_sent');
		} finally {
			await sandbox.close();
		}
	});

	it('refuses a time outside 1 minute to 90 days ahead, naming sendAt, and bounds what a workspace keeps', async () => {
		const sandbox = await start();
		try {
			const key = (sandbox.keys as { workspace: string }).workspace;
			const instance = await connectedInstance(sandbox, 'Sales', '+14155550100');
			const send = (sendAt: string, idempotencyKey?: string) =>
				raw(sandbox.baseUrl, 'POST', `/api/v1/instances/${instance.id}/messages/text`, {
					key,
					body: { to: '+14155550123', text: 'Hi', sendAt },
					...(idempotencyKey ? { headers: { 'idempotency-key': idempotencyKey } } : {}),
				});
			for (const sendAt of [
				at(clock + 30_000),
				at(clock - MINUTE),
				at(clock + 91 * 24 * 60 * MINUTE),
			]) {
				const refused = await send(sendAt);
				expect(refused.status).toBe(400);
				expect(JSON.stringify(refused.body)).toContain('body.sendAt');
				expect(JSON.stringify(refused.body)).toContain('from 1 minute to 90 days ahead');
			}
			// The idempotency key covers the scheduled send: the same key and body keep one.
			const first = await send(at(clock + 2 * MINUTE), 'reminder-1');
			const repeated = await send(at(clock + 2 * MINUTE), 'reminder-1');
			expect(repeated.body).toEqual(first.body);
			expect(sandbox.store.all('scheduledMessages')).toHaveLength(1);
			expect((await send(at(clock + 3 * MINUTE))).status).toBe(201);
			expect((await send(at(clock + 4 * MINUTE))).status).toBe(201);
			const fourth = await send(at(clock + 5 * MINUTE));
			expect(fourth.status).toBe(409);
			expect(JSON.stringify(fourth.body)).toContain('too_many_scheduled');
			// Those that went are kept up to the bound (2 here), the oldest dropped.
			clock += 10 * MINUTE;
			await waitFor(
				() =>
					sandbox.events.filter((event) => event.type === 'message.scheduled_sent').length === 3,
				10_000,
			);
			expect(sandbox.store.all('scheduledMessages')).toHaveLength(2);
		} finally {
			await sandbox.close();
		}
	});

	it('keeps scheduled sends across a restart: one goes at its time after it, a missed one goes on start, late', async () => {
		const dataFile = join(directory, 'state.json');
		const first = await start(dataFile);
		const keys = first.keys as { workspace: string };
		const instance = await connectedInstance(first, 'Sales', '+14155550100');
		let client = clientsFor(first.baseUrl, first.keys as never).workspace;
		const missed = await client.messages.sendText({
			instanceId: instance.id,
			body: { to: '+14155550123', text: 'Missed while down', sendAt: at(clock + 2 * MINUTE) },
		});
		const later = await client.messages.sendText({
			instanceId: instance.id,
			body: { to: '+14155550124', text: 'After the restart', sendAt: at(clock + 20 * MINUTE) },
		});
		await first.close();

		clock += 10 * MINUTE;
		const second = await start(dataFile);
		try {
			client = clientsFor(second.baseUrl, keys as never).workspace;
			await waitFor(
				() => second.events.some((event) => event.type === 'message.scheduled_sent'),
				10_000,
			);
			const wentLate = await client.messages.get({ instanceId: instance.id, messageId: missed.id });
			expect(wentLate).toMatchObject({ late: true, sendAt: missed.sendAt, sentAt: at(clock) });
			const event = second.events.find((e) => e.type === 'message.scheduled_sent');
			expect(event?.data).toMatchObject({ id: missed.id, late: true });
			const stillScheduled = await client.scheduledMessages.list({
				instanceId: instance.id,
				query: { status: 'scheduled' },
			});
			expect(stillScheduled.data.map((message) => message.id)).toEqual([later.id]);

			clock += 10 * MINUTE;
			await waitFor(
				() => second.events.filter((e) => e.type === 'message.scheduled_sent').length === 2,
				10_000,
			);
			const onTime = await client.messages.get({ instanceId: instance.id, messageId: later.id });
			expect(onTime).toMatchObject({
				sendAt: later.sendAt,
				content: { text: 'After the restart' },
			});
			expect(onTime.late).toBeUndefined();
		} finally {
			await second.close();
		}
	});
});
