/* eslint-disable @n8n/community-nodes/no-restricted-imports -- tests run in plain Node, never inside n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { sendDueCampaigns } from '../../sandbox/campaigns/sender';
import type { WorkspaceClient } from '../../src/client';
import { bundleSandboxProcess, SandboxProcess } from '../support/killed-sandbox';
import {
	clientsFor,
	connectedInstance,
	sleep,
	startReceiver,
	startTestSandbox,
	waitFor,
	type Receiver,
} from '../support/sandbox';

/**
 * A campaign across restarts: each recipient is sent exactly once and a campaign running at the stop goes on,
 * whether the sandbox was closed (on the test's clock) or killed (kill -9, a process of its own) at a send and
 * again at its `campaign.completed`, which comes again under its one id.
 */

type Keys = { workspace: string; shortLink: string; automation: string };

const directory = mkdtempSync(join(tmpdir(), 'sandbox-campaign-restart-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const people = (count: number) =>
	Array.from({ length: count }, (_, index) => ({ to: `+1415555${7000 + index}` }));

/** How many messages the instance sent to each number, from its message list. */
async function messagesPerNumber(client: WorkspaceClient, instanceId: string) {
	const counts = new Map<string, number>();
	let cursor: string | undefined;
	do {
		const page = await client.messages.list({
			instanceId,
			query: { direction: 'outbound', limit: 100, ...(cursor ? { cursor } : {}) },
		});
		for (const message of page.data)
			counts.set(message.to as string, (counts.get(message.to as string) ?? 0) + 1);
		cursor = page.nextCursor ?? undefined;
	} while (cursor);
	return counts;
}

it('closed and started again on its data file, a running campaign goes on: each recipient once', async () => {
	const dataFile = join(directory, 'closed.json');
	let clock = Date.parse('2026-11-26T10:00:00Z');
	const options = {
		dataFile,
		now: () => clock,
		rateLimit: false as const,
		scheduled: { tickMs: 3_600_000 },
	};
	const first = await startTestSandbox(options);
	const client = clientsFor(first.baseUrl, first.keys as Keys).workspace;
	const { id: instanceId } = await connectedInstance(first, 'Restart', '+14155550100');
	const { campaign } = await client.campaigns.create({
		instanceId,
		body: {
			name: 'Across',
			message: { text: 'Hello' },
			pacing: { perMinute: 60 },
			recipients: people(20),
		},
	});
	await client.campaigns.start({ campaignId: campaign.id, body: {} });
	clock += 6_000;
	sendDueCampaigns(first.core);
	await first.close();

	const again = await startTestSandbox(options);
	try {
		const clientAgain = clientsFor(again.baseUrl, first.keys as Keys).workspace;
		expect(await clientAgain.campaigns.get({ campaignId: campaign.id })).toMatchObject({
			status: 'running',
			counts: { queued: 13 },
		});
		for (let second = 0; second < 20; second++) {
			clock += 1_000;
			sendDueCampaigns(again.core);
		}
		const done = await clientAgain.campaigns.get({ campaignId: campaign.id });
		expect(done).toMatchObject({
			status: 'completed',
			counts: { queued: 0, failed: 0, skipped: 0 },
		});
		const perNumber = await messagesPerNumber(clientAgain, instanceId);
		expect(perNumber.size).toBe(20);
		expect([...perNumber.values()].every((count) => count === 1)).toBe(true);
		expect(again.events.filter((event) => event.type === 'campaign.completed')).toHaveLength(1);
	} finally {
		await again.close();
	}
});

describe('killed (kill -9) at a send, at any moment, and at its campaign.completed', () => {
	let bundle: ReturnType<typeof bundleSandboxProcess>;
	let receiver: Receiver;
	const started: SandboxProcess[] = [];
	beforeAll(async () => {
		bundle = bundleSandboxProcess();
		receiver = await startReceiver();
	});
	afterAll(async () => {
		await Promise.all(started.map((sandbox) => sandbox.stop()));
		await receiver.close();
		bundle?.remove();
	});

	it('sends each recipient once and announces the completion under one id', async () => {
		const dataFile = join(directory, 'killed.json');
		const options = {
			dataFile,
			rateLimit: false as const,
			scheduled: { tickMs: 20 },
			simulation: { deliveredAfterMs: 50, readAfterMs: 50 },
			webhooks: { retryBaseMs: 100, maxRetryDelayMs: 300 },
		};
		const start = async () => {
			const sandbox = await SandboxProcess.start(bundle.script, options);
			started.push(sandbox);
			return sandbox;
		};
		const first = await start();
		const keys = first.keys as Keys;
		const client = clientsFor(first.baseUrl, keys).workspace;
		const hook = await client.webhooks.create({
			body: { url: `${receiver.url}/hook`, events: ['message.sent', 'campaign.completed'] },
		});
		receiver.secrets.push(hook.secret);
		const { id: instanceId } = await connectedInstance(
			{ baseUrl: first.baseUrl, keys } as never,
			'Killed',
			'+14155550100',
		);
		// Killed as the 10th message.sent arrives, at a moment tied to nothing after the restart, then as the
		// first campaign.completed arrives.
		let current = first;
		let kills = 0;
		receiver.respond = (delivery) => {
			const sent = receiver.of('message.sent').length;
			if (
				(kills === 0 && sent === 10) ||
				(kills === 2 && delivery.event.type === 'campaign.completed')
			) {
				kills += 1;
				current.kill();
			}
			return 200;
		};
		const { campaign } = await client.campaigns.create({
			instanceId,
			body: {
				name: 'Killed',
				message: { text: 'Hello' },
				pacing: { perMinute: 600 },
				recipients: people(40),
			},
		});
		await client.campaigns.start({ campaignId: campaign.id, body: {} });
		for (const kill of [1, 2, 3]) {
			if (kill === 2) {
				const delayMs = 100 + Math.round(Math.random() * 600);
				await sleep(delayMs);
				kills = 2;
				current.kill();
			}
			await waitFor(() => kills >= kill, 20_000, `kill ${kill}`);
			await current.exited;
			current = await start();
		}
		const clientAgain = clientsFor(current.baseUrl, keys).workspace;
		await waitFor(
			() => receiver.of('campaign.completed').length >= 2,
			20_000,
			'campaign.completed again',
		);
		const done = await clientAgain.campaigns.get({ campaignId: campaign.id });
		expect(done).toMatchObject({ status: 'completed', counts: { recipients: 40, queued: 0 } });
		const perNumber = await messagesPerNumber(clientAgain, instanceId);
		expect(perNumber.size).toBe(40);
		expect([...perNumber.entries()].filter(([, count]) => count !== 1)).toEqual([]);
		expect(new Set(receiver.of('campaign.completed').map(({ event }) => event.id)).size).toBe(1);
	}, 60_000);
});
