import { sendDueCampaigns } from '../../sandbox/campaigns/sender';
import type { Sandbox } from '../../sandbox/server';
import { campaignSandbox } from '../support/campaigns';
import { raw } from '../support/sandbox';

/**
 * Opt-outs through the sandbox's HTTP API: the workspace's list and its events, a campaign never sending to an
 * opted-out number (also when the opt-out comes while the send is due), a stop word answering a campaign, and a
 * plain 1:1 send that still goes. The clock is the test's; the test runs the sender's check itself.
 */

describe('opt-outs', () => {
	const world = campaignSandbox('Opt-outs', '2026-11-26T10:00:00Z');
	const { client, key, advance } = world;
	let sandbox: Sandbox;
	let instanceId: string;
	beforeAll(() => ({ sandbox, instanceId } = world));
	const eventsOf = (type: string) =>
		sandbox.events
			.filter((event) => event.type === type)
			.map((event) => event.data as Record<string, unknown>);
	const messagesTo = (to: string) =>
		[...sandbox.core.store.values('messages')].filter(
			(message) => message.direction === 'outbound' && message.to === to,
		);
	const campaignTo = async (name: string, numbers: string[], extra: object = {}) => {
		const { campaign, recipients } = await client().campaigns.create({
			instanceId,
			body: {
				name,
				message: { text: 'Our spring sale starts today' },
				pacing: { perMinute: 60 },
				recipients: numbers.map((to) => ({ to })),
				...extra,
			},
		});
		return { campaignId: campaign.id, results: recipients.map((recipient) => recipient.result) };
	};

	it('keeps the list through the API, with an event each way', async () => {
		expect(await client().optOuts.get({ phone: '+14155556001' })).toMatchObject({
			optedOut: false,
			since: null,
		});
		const added = await client().optOuts.add({
			body: { phone: '+14155556001', reason: 'by phone' },
		});
		expect(added).toMatchObject({ optedOut: true, source: 'api', reason: 'by phone' });
		// Again: as it is, no second event.
		await client().optOuts.add({ body: { phone: '+14155556001' } });
		expect(eventsOf('contact.opted_out')).toEqual([
			expect.objectContaining({ phone: '+14155556001', source: 'api', campaignId: null }),
		]);
		await client().optOuts.add({ body: { phone: '+14155556002' } });
		const listed = await client().optOuts.list({ query: { limit: 1 } });
		expect(listed.data.map((entry) => entry.phone)).toEqual(['+14155556002']);
		expect(listed.nextCursor).toBeTruthy();
		expect(await client().optOuts.remove({ phone: '+14155556002' })).toMatchObject({
			optedOut: false,
		});
		expect(eventsOf('contact.opted_in')).toEqual([
			expect.objectContaining({ phone: '+14155556002' }),
		]);
		const bad = await raw(sandbox.baseUrl, 'POST', '/api/v1/opt-outs', {
			key: key(),
			body: { phone: '0151 1234' },
		});
		expect(bad.status).toBe(400);
		expect(JSON.stringify(bad.body)).toContain('body.phone');
	});

	it('never sends a campaign to an opted-out number, also when the opt-out comes while the send is due', async () => {
		const { campaignId, results } = await campaignTo('Skip', [
			'+14155556001',
			'+14155556003',
			'+14155556004',
		]);
		// Already opted out: kept, skipped.
		expect(results).toEqual(['opted_out', 'accepted', 'accepted']);
		await client().campaigns.start({ campaignId, body: {} });
		// The next send is due (the clock is past it), but the sender has not run yet: the opt-out comes first.
		world.clock += 5_000;
		await client().optOuts.add({ body: { phone: '+14155556003' } });
		sendDueCampaigns(sandbox.core);
		const done = await client().campaigns.get({ campaignId });
		expect(done).toMatchObject({
			status: 'completed',
			counts: { skipped: 2, skippedBy: { opted_out: 2 } },
		});
		expect(messagesTo('+14155556001')).toHaveLength(0);
		expect(messagesTo('+14155556003')).toHaveLength(0);
		expect(messagesTo('+14155556004')).toHaveLength(1);
	});

	it('opts out a contact answering a campaign with a stop word, confirms, and a 1:1 send still goes', async () => {
		const { campaignId } = await campaignTo('Stop words', ['+14155556010'], {
			optOut: { stopWords: ['STOP', 'Abmelden'], confirmation: 'You are unsubscribed.' },
		});
		await client().campaigns.start({ campaignId, body: {} });
		advance(0);
		expect(messagesTo('+14155556010')).toHaveLength(1);
		// Not a stop word: a reply only.
		await raw(sandbox.baseUrl, 'POST', `/sandbox/instances/${instanceId}/inbound`, {
			key: key(),
			body: { from: '+14155556010', text: 'stop sending me this?' },
		});
		expect((await client().optOuts.get({ phone: '+14155556010' })).optedOut).toBe(false);
		await raw(sandbox.baseUrl, 'POST', `/sandbox/instances/${instanceId}/inbound`, {
			key: key(),
			body: { from: '+14155556010', text: '  abmelden ' },
		});
		expect(await client().optOuts.get({ phone: '+14155556010' })).toMatchObject({
			optedOut: true,
			source: 'stop_word',
			campaignId,
		});
		expect(messagesTo('+14155556010').map((message) => message.content.text)).toEqual([
			'Our spring sale starts today',
			'You are unsubscribed.',
		]);
		expect(eventsOf('contact.opted_out').at(-1)).toMatchObject({
			phone: '+14155556010',
			source: 'stop_word',
			campaignId,
			instanceId,
		});
		const [recipient] = (await client().campaigns.listRecipients({ campaignId })).data;
		expect(recipient).toMatchObject({ state: 'replied' });
		// A plain 1:1 send is not a campaign: it goes.
		const plain = await client().messages.sendText({
			instanceId,
			body: { to: '+14155556010', text: 'Your order has shipped' },
		});
		expect(plain.status).toBe('sent');
		expect(messagesTo('+14155556010')).toHaveLength(3);
	});
});
