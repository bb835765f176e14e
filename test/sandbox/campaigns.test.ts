import type { Sandbox } from '../../sandbox/server';
import { campaignSandbox } from '../support/campaigns';
import { connectedInstance, raw, waitFor } from '../support/sandbox';

/**
 * Campaigns at the sandbox, through its HTTP API: pacing and jitter on the sandbox's clock, the send window in its
 * time zone, pause, resume and cancel before the next send, per-recipient results, a create made safe to repeat by
 * its reference, failures. The clock is the test's; after moving it the test runs the sender's check itself
 * (sendDueCampaigns, what its timer runs), so nothing waits on a timer.
 */

const SECOND = 1000;
const recipients = (count: number, from = 0) =>
	Array.from({ length: count }, (_, index) => ({
		to: `+1415555${String(2000 + from + index).padStart(4, '0')}`,
		variables: { name: `Person ${from + index}` },
	}));

describe('campaigns', () => {
	// A Friday, 16:59 in Berlin.
	const world = campaignSandbox('Campaigns', '2026-11-27T15:59:00Z');
	const { client, advance } = world;
	let sandbox: Sandbox;
	let instanceId: string;
	beforeAll(() => ({ sandbox, instanceId } = world));
	const sentTo = (campaignId: string) =>
		[...sandbox.core.store.values('campaignRecipients')]
			.filter((recipient) => recipient.campaignId === campaignId && recipient.messageId !== null)
			.map((recipient) => recipient.to);

	it('sends at most perMinute a minute, each gap within 60/perMinute + jitter', async () => {
		const { campaign } = await client().campaigns.create({
			instanceId,
			body: { name: 'Even', message: { text: 'Hi {{name}}' }, recipients: recipients(30) },
		});
		await client().campaigns.start({ campaignId: campaign.id, body: {} });
		advance(0);
		expect(sentTo(campaign.id)).toHaveLength(1);
		advance(60 * SECOND - 1);
		expect(sentTo(campaign.id)).toHaveLength(20);
		advance(1);
		expect(sentTo(campaign.id)).toHaveLength(21);
		const first = sandbox.core.store.get(
			'messages',
			sandbox.core.store.get('campaignRecipients', `${campaign.id}/0`)!.messageId!,
		);
		expect(first?.content).toEqual({ text: 'Hi Person 0' });
		await client().campaigns.cancel({ campaignId: campaign.id });

		const jittered = await client().campaigns.create({
			instanceId,
			body: {
				name: 'Jittered',
				message: { text: 'Hi {{name}}' },
				pacing: { perMinute: 10, jitterSeconds: 3 },
				recipients: recipients(25, 100),
			},
		});
		const campaignId = jittered.campaign.id;
		await client().campaigns.start({ campaignId, body: {} });
		for (let step = 0; step < 2000 && sentTo(campaignId).length < 25; step++) advance(100);
		const listed = await client().campaigns.listRecipients({ campaignId, query: { limit: 100 } });
		const times = listed.data.map((recipient) => Date.parse(recipient.sentAt as string));
		const gaps = times.slice(1).map((time, index) => time - times[index]);
		expect(gaps).toHaveLength(24);
		for (const gap of gaps) {
			expect(gap).toBeGreaterThanOrEqual(6 * SECOND);
			expect(gap).toBeLessThanOrEqual(9 * SECOND + 100);
		}
		// Random, not a fixed longer gap.
		expect(new Set(gaps).size).toBeGreaterThan(5);
		const done = await client().campaigns.get({ campaignId });
		expect(done).toMatchObject({
			status: 'completed',
			counts: { recipients: 25, queued: 0, failed: 0, skipped: 0 },
		});
		expect(done.counts.sent + done.counts.delivered + done.counts.read).toBe(25);
		expect(
			sandbox.events.filter(
				(event) =>
					event.type === 'campaign.completed' && (event.data as { id: string }).id === campaignId,
			),
		).toHaveLength(1);
	});

	it('sends only inside its window, in its time zone; outside it waits for the next opening', async () => {
		world.clock = Date.parse('2026-11-27T15:59:00Z');
		const { campaign } = await client().campaigns.create({
			instanceId,
			body: {
				name: 'Office hours',
				message: { text: 'Hello {{name}}' },
				pacing: { perMinute: 60 },
				window: {
					from: '09:00',
					to: '17:00',
					timeZone: 'Europe/Berlin',
					days: ['mon', 'tue', 'wed', 'thu', 'fri'],
				},
				recipients: recipients(70, 200),
			},
		});
		await client().campaigns.start({ campaignId: campaign.id, body: {} });
		advance(0);
		advance(60 * SECOND);
		// 16:59:00 to 16:59:59 Berlin: 60 sends, then closed until Monday 09:00 Berlin (08:00 UTC).
		expect(sentTo(campaign.id)).toHaveLength(60);
		const waiting = await client().campaigns.get({ campaignId: campaign.id });
		expect(waiting.nextSendAt).toBe('2026-11-30T08:00:00.000Z');
		advance(2 * 24 * 3600 * SECOND);
		expect(sentTo(campaign.id)).toHaveLength(60);
		world.clock = Date.parse('2026-11-30T08:00:00Z');
		advance(0);
		expect(sentTo(campaign.id)).toHaveLength(61);
		await client().campaigns.cancel({ campaignId: campaign.id });
	});

	it('pauses, resumes and cancels before the next send; repeats answer as they are', async () => {
		const { campaign } = await client().campaigns.create({
			instanceId,
			body: {
				name: 'Stop and go',
				message: { text: 'Hi {{name}}' },
				pacing: { perMinute: 60 },
				recipients: recipients(10, 300),
			},
		});
		const campaignId = campaign.id;
		await client().campaigns.start({ campaignId, body: {} });
		advance(0);
		expect(sentTo(campaignId)).toHaveLength(1);
		// Paused while the next is due: nothing goes, however long.
		advance(999);
		expect((await client().campaigns.pause({ campaignId })).status).toBe('paused');
		expect((await client().campaigns.pause({ campaignId })).status).toBe('paused');
		advance(30 * SECOND);
		expect(sentTo(campaignId)).toHaveLength(1);
		// Starting again changes nothing.
		expect((await client().campaigns.start({ campaignId, body: {} })).status).toBe('paused');
		expect((await client().campaigns.resume({ campaignId })).status).toBe('running');
		advance(0);
		expect(sentTo(campaignId)).toHaveLength(2);
		advance(999);
		const cancelled = await client().campaigns.cancel({ campaignId });
		expect(cancelled).toMatchObject({
			status: 'cancelled',
			counts: { queued: 0, skipped: 8, skippedBy: { cancelled: 8 } },
		});
		// Sent, or delivered or read already: the channel's receipts run on their own timers.
		expect(cancelled.counts.sent + cancelled.counts.delivered + cancelled.counts.read).toBe(2);
		advance(60 * SECOND);
		expect(sentTo(campaignId)).toHaveLength(2);
		expect((await client().campaigns.cancel({ campaignId })).status).toBe('cancelled');
		const resumed = await raw(sandbox.baseUrl, 'POST', `/api/v1/campaigns/${campaignId}/resume`, {
			key: (sandbox.keys as { workspace: string }).workspace,
		});
		expect(resumed.status).toBe(409);
		const skipped = await client().campaigns.listRecipients({
			campaignId,
			query: { state: 'skipped', limit: 3 },
		});
		expect(skipped.data.map((recipient) => recipient.reason)).toEqual([
			'cancelled',
			'cancelled',
			'cancelled',
		]);
		expect(skipped.nextCursor).toBeTruthy();
	});

	it('reports each recipient: duplicates, invalid numbers and missing variables do not fail the call', async () => {
		const key = (sandbox.keys as { workspace: string }).workspace;
		const body = {
			name: 'Results',
			reference: 'results-1',
			message: { text: 'Hi {{name}}' },
			recipients: [
				{ to: '+14155553001', variables: { name: 'Ann' } },
				{ to: '+1 415 555 3001', variables: { name: 'Ann again' } },
				{ to: 'call me', variables: { name: 'Cy' } },
				{ to: '+14155553002' },
			],
		};
		const created = await raw(
			sandbox.baseUrl,
			'POST',
			`/api/v1/instances/${instanceId}/campaigns`,
			{ key, body },
		);
		expect(created.status).toBe(201);
		const answer = created.body as {
			created: boolean;
			campaign: { id: string };
			recipients: unknown[];
		};
		expect(answer.created).toBe(true);
		expect(answer.recipients).toEqual([
			expect.objectContaining({ result: 'accepted', reason: null }),
			expect.objectContaining({ result: 'duplicate' }),
			expect.objectContaining({ result: 'invalid', reason: expect.stringContaining('call me') }),
			expect.objectContaining({ result: 'invalid', reason: 'missing_variable: name' }),
		]);
		// The same create again: the campaign as it is, nothing added.
		const again = await raw(sandbox.baseUrl, 'POST', `/api/v1/instances/${instanceId}/campaigns`, {
			key,
			body,
		});
		expect(again.status).toBe(200);
		expect(again.body).toMatchObject({
			created: false,
			campaign: { id: answer.campaign.id },
			recipients: [],
		});
		const other = await connectedInstance(sandbox, 'Other', '+14155550199');
		const elsewhere = await raw(
			sandbox.baseUrl,
			'POST',
			`/api/v1/instances/${other.id}/campaigns`,
			{ key, body },
		);
		expect(elsewhere.status).toBe(409);
		expect(JSON.stringify(elsewhere.body)).toContain('body.reference');
		// Another message under the same reference: answering the old campaign would send its old text to the
		// new recipients.
		const reworded = await raw(
			sandbox.baseUrl,
			'POST',
			`/api/v1/instances/${instanceId}/campaigns`,
			{ key, body: { ...body, message: { text: 'Hello {{name}}' } } },
		);
		expect(reworded.status).toBe(409);
		expect(reworded.body).toMatchObject({
			error: {
				code: 'reference_in_use',
				message: expect.stringContaining('give the campaign a new name'),
				details: [{ field: 'body.reference', message: expect.stringContaining('another message') }],
			},
		});

		const campaignId = answer.campaign.id;
		const added = await client().campaigns.addRecipients({
			campaignId,
			body: {
				recipients: [
					{ to: '+14155553001', variables: { name: 'A' } },
					{ to: '+14155553003', variables: { name: 'B' } },
				],
			},
		});
		expect(added.recipients.map((recipient) => recipient.result)).toEqual([
			'duplicate',
			'accepted',
		]);
		expect(added.campaign.counts).toMatchObject({
			recipients: 2,
			queued: 2,
			skippedBy: { duplicate: 2, invalid: 2 },
		});
		await client().campaigns.cancel({ campaignId });
		const closed = await client().campaigns.addRecipients({
			campaignId,
			body: {
				recipients: [
					{ to: '+14155553003', variables: { name: 'B' } },
					{ to: '+14155553004', variables: { name: 'C' } },
				],
			},
		});
		expect(closed.recipients.map((recipient) => recipient.result)).toEqual(['duplicate', 'closed']);
	});

	it('follows each message: delivered, read, failed with campaign.recipient.failed', async () => {
		const { campaign } = await client().campaigns.create({
			instanceId,
			body: {
				name: 'Receipts',
				message: { text: 'Hello' },
				pacing: { perMinute: 600 },
				// The sandbox's channel knows no number ending in 0000: that message fails.
				recipients: [{ to: '+14155554001' }, { to: '+14155550000' }],
			},
		});
		const campaignId = campaign.id;
		await client().campaigns.start({ campaignId, body: {} });
		advance(0);
		advance(100);
		const done = await waitFor(async () => {
			const read = await client().campaigns.get({ campaignId });
			return read.counts.read === 1 && read.counts.failed === 1 && read;
		});
		expect(done).toMatchObject({ status: 'completed', counts: { sent: 0, delivered: 0 } });
		const failed = sandbox.events.filter(
			(event) =>
				event.type === 'campaign.recipient.failed' &&
				(event.data as { campaignId: string }).campaignId === campaignId,
		);
		expect(failed).toHaveLength(1);
		expect(failed[0].data).toMatchObject({
			instanceId,
			reason: 'recipient_not_on_channel',
			recipient: { to: '+14155550000', state: 'failed' },
		});
	});

	it('sends media with each caption filled in, links with UTM fields tracked; a refused media URL is 400', async () => {
		const { campaign } = await client().campaigns.create({
			instanceId,
			body: {
				name: 'Media',
				message: {
					media: {
						url: 'https://cdn.example.com/sale.png',
						mediaType: 'image',
						caption: 'Hi {{name}}, see https://shop.example.com/sale?x=1',
					},
				},
				links: { track: true, utm: { source: 'whatsapp', medium: 'chat', campaign: 'spring' } },
				recipients: [{ to: '+14155555001', variables: { name: 'Ann' } }],
			},
		});
		await client().campaigns.start({ campaignId: campaign.id, body: {} });
		advance(0);
		const [recipient] = (await client().campaigns.listRecipients({ campaignId: campaign.id })).data;
		const message = sandbox.core.store.get('messages', recipient.messageId as string);
		expect(message).toMatchObject({ type: 'image', campaignRecipientId: recipient.id });
		expect(message?.content.caption).toMatch(/^Hi Ann, see http:\/\/127\.0\.0\.1:\d+\/\w+$/);
		const link = sandbox.core.store.get('links', message?.trackedLinks?.[0]?.linkId as string);
		expect(link?.url).toBe(
			'https://shop.example.com/sale?x=1&utm_source=whatsapp&utm_medium=chat&utm_campaign=spring',
		);

		const refused = await raw(
			sandbox.baseUrl,
			'POST',
			`/api/v1/instances/${instanceId}/campaigns`,
			{
				key: (sandbox.keys as { workspace: string }).workspace,
				body: {
					name: 'Inside',
					message: { media: { url: 'http://127.0.0.1/x.png', mediaType: 'image' } },
				},
			},
		);
		expect(refused.status).toBe(400);
		expect(JSON.stringify(refused.body)).toContain('body.message.media.url');
	});
});
