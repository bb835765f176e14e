import { campaignSandbox } from '../support/campaigns';

/**
 * A campaign's send window, through the API: started at a given instant of the sandbox's clock, a campaign's
 * first send is due at once inside its window, else at its next opening: on its days only, past midnight when
 * it closes before it opens, at the local time across a change to summer time.
 */

describe('the send window', () => {
	const world = campaignSandbox('Window', '2026-11-26T10:00:00Z');

	/** When a campaign with this window started at `now` sends first. */
	async function firstSendAt(
		now: string,
		window: {
			from: string;
			to: string;
			timeZone: string;
			days?: Array<'mon' | 'tue' | 'wed' | 'thu' | 'fri'>;
		},
	) {
		world.clock = Date.parse(now);
		const client = world.client();
		const { campaign } = await client.campaigns.create({
			instanceId: world.instanceId,
			body: {
				name: 'Window',
				message: { text: 'Hi' },
				window,
				recipients: [{ to: '+14155550123' }],
			},
		});
		const started = await client.campaigns.start({ campaignId: campaign.id, body: {} });
		await client.campaigns.cancel({ campaignId: campaign.id });
		return started.nextSendAt;
	}

	it('opens at the local time of its time zone, on its days only', async () => {
		const weekdays = {
			from: '09:00',
			to: '17:00',
			timeZone: 'America/New_York',
			days: ['mon' as const, 'tue' as const, 'wed' as const, 'thu' as const, 'fri' as const],
		};
		// Saturday 12:00 in New York (17:00 UTC): Monday 09:00 EST (14:00 UTC).
		expect(await firstSendAt('2026-11-28T17:00:00Z', weekdays)).toBe('2026-11-30T14:00:00.000Z');
		expect(await firstSendAt('2026-11-30T15:30:00Z', weekdays)).toBe('2026-11-30T15:30:00.000Z');
		// At the close: the next day's opening.
		expect(await firstSendAt('2026-11-30T22:00:00Z', weekdays)).toBe('2026-12-01T14:00:00.000Z');
	});

	it('runs past midnight when it closes before it opens', async () => {
		const night = { from: '22:00', to: '02:00', timeZone: 'UTC' };
		expect(await firstSendAt('2026-11-30T01:00:00Z', night)).toBe('2026-11-30T01:00:00.000Z');
		expect(await firstSendAt('2026-11-30T23:00:00Z', night)).toBe('2026-11-30T23:00:00.000Z');
		expect(await firstSendAt('2026-11-30T02:00:00Z', night)).toBe('2026-11-30T22:00:00.000Z');
	});

	it('follows the local clock across a change to summer time', async () => {
		const mornings = { from: '08:00', to: '09:00', timeZone: 'Europe/Berlin' };
		// Berlin moves to CEST (UTC+2) on 2027-03-28: 08:00 is 07:00 UTC the day before, 06:00 UTC that day.
		expect(await firstSendAt('2027-03-26T10:00:00Z', mornings)).toBe('2027-03-27T07:00:00.000Z');
		expect(await firstSendAt('2027-03-27T10:00:00Z', mornings)).toBe('2027-03-28T06:00:00.000Z');
	});
});
