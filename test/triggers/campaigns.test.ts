/**
 * The Multichannel Trigger on the campaign and opt-out events against the sandbox: a campaign completed, a
 * recipient failed, a contact opting out by answering STOP, and an opt-out and opt-in through the API each start
 * the workflow once; the Campaigns option keeps only the chosen campaign's events (an opt-out through the API
 * belongs to no campaign), acknowledging the rest with the reason, and lets every other event through.
 */
import type { TriggerUnderTest } from '../../dev/harness/triggers';
import { useMessagingTrigger } from '../support/triggers';
import { waitFor } from '../support/waiting';

const suite = useMessagingTrigger('Campaign trigger', '+14155550600');
const EVENTS = [
	'campaign.completed',
	'campaign.recipient.failed',
	'contact.opted_out',
	'contact.opted_in',
];

/** What each run was about, once the trigger heard `count` events: the event, its campaign's name or the phone. */
async function runsOf(node: TriggerUnderTest, count: number, names: Record<string, string>) {
	return (await suite.eventsRun(node, count, 30_000))
		.map((event) => {
			const campaignId = String(
				event.type === 'campaign.completed' ? event.data.id : event.data.campaignId,
			);
			const phone = event.data.phone ? ` ${String(event.data.phone)}` : '';
			return `${event.type} ${names[campaignId] ?? 'no campaign'}${phone}`;
		})
		.sort();
}

it('campaign and opt-out events: one run each, and only the chosen campaign’s with Campaigns', async () => {
	const { client, instanceId } = suite;
	const campaign = async (name: string, recipients: string[]) =>
		(
			await client.campaigns.create({
				instanceId,
				body: {
					name,
					message: { text: 'Our winter sale' },
					pacing: { perMinute: 600 },
					recipients: recipients.map((to) => ({ to })),
				},
			})
		).campaign.id;
	// The sandbox's channel knows no number ending in 0000: that recipient fails.
	const winter = await campaign('Winter', ['+14155550601', '+14155550000']);
	const spring = await campaign('Spring', ['+14155550602']);
	const names = { [winter]: 'Winter', [spring]: 'Spring' };

	const every = await suite.activated({}, 'Every campaign event', EVENTS);
	const winterOnly = await suite.activated({ campaignIds: [winter] }, 'Winter only', [
		...EVENTS,
		'message.received',
	]);

	await client.campaigns.start({ campaignId: winter, body: {} });
	await client.campaigns.start({ campaignId: spring, body: {} });
	await waitFor(
		async () => (await client.campaigns.get({ campaignId: winter })).counts.failed === 1,
		30_000,
		'the Winter campaign to complete with one failure',
	);
	// The contact answers the campaign with a stop word; another is opted out and back in through the API.
	await suite.sandboxCall(`/sandbox/instances/${instanceId}/inbound`, {
		from: '+14155550601',
		text: 'stop',
	});
	await client.optOuts.add({ body: { phone: '+14155550603' } });
	await client.optOuts.remove({ phone: '+14155550603' });

	expect(await runsOf(every, 6, names)).toEqual(
		[
			'campaign.completed Spring',
			'campaign.completed Winter',
			'campaign.recipient.failed Winter',
			'contact.opted_out Winter +14155550601',
			'contact.opted_out no campaign +14155550603',
			'contact.opted_in no campaign +14155550603',
		].sort(),
	);
	// Winter's three, and the STOP itself as a received message (other events are not filtered).
	const winterRuns = await runsOf(winterOnly, 7, names);
	expect(winterRuns.filter((run) => !run.startsWith('message.received'))).toEqual(
		[
			'campaign.completed Winter',
			'campaign.recipient.failed Winter',
			'contact.opted_out Winter +14155550601',
		].sort(),
	);
	expect(winterRuns.filter((run) => run.startsWith('message.received'))).toHaveLength(1);
	expect(suite.skipReasons(winterOnly)).toEqual([
		'a campaign not among Campaigns',
		'no campaign (Campaigns)',
	]);
}, 120_000);
