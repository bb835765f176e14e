/**
 * Campaign → Create's settings on the wire, with nock: a {{name}} placeholder as a person types it (Fixed mode;
 * refused in an expression, naming the field), media by URL, the send window, tracked links with UTM fields, stop
 * words, Start At, and To read from the item or evaluated by n8n alike. The calls of 1,000, the re-run and the
 * numbers reported per item are in campaign-wire.test.ts.
 */

import { runNode } from '../../dev/harness';
import { nockOnly } from '../support/client';
import {
	createNode,
	credentials,
	people,
	service,
	type Recipient,
} from '../support/campaign-service';
import { NODE_NAME } from '../support/nodes';

nockOnly();

test('a placeholder: Fixed mode sends {{name}} as typed; {{name}} in an expression is refused, naming the field', async () => {
	const seen = service({ created: true, adds: 0 });
	const fixed = await runNode(createNode({ text: 'Hi {{name}}!' }), {
		credentials,
		items: people(1),
	});
	expect(fixed.error).toBeUndefined();
	expect(seen[0].body.message).toEqual({ text: 'Hi {{name}}!' });

	// n8n reads {{name}} in an expression itself, as an unknown variable: it would send "Hi !" to everyone.
	const expression = await runNode(createNode({ text: '=Hi {{name}}! {{ $json.visits }}' }), {
		credentials,
		items: people(1),
	});
	expect(expression.error?.message).toBe(
		'Invalid value for "Text" [item 0]: in an expression, {{name}} is read by n8n and gives nothing',
	);
	expect(expression.error?.description).toBe(
		"Write {{ '{{' }}name}} to send the placeholder, or switch the field to Fixed and write {{name}}.",
	);
	expect(seen).toHaveLength(2); // the first run's create and start; the second sent nothing
});

test("the campaign's settings on the wire: media by URL, send window, tracked links with UTM, stop words, Start At", async () => {
	const seen = service({ created: true, adds: 0 });
	const items = people(2);
	items[0].notes = 'x'.repeat(1001); // past a variable's 1,000 characters: left out
	const result = await runNode(
		createNode({
			messageType: 'media',
			mediaUrl: ' https://example.com/offer.jpg ',
			mediaType: 'image',
			caption: 'For you, {{name}}',
			options: {
				reference: 'sunday-offer-2026-12-06',
				fileName: 'offer.jpg',
				windowFrom: '09:00',
				windowTo: '18:30',
				trackLinks: true,
				utmSource: 'whatsapp',
				utmMedium: 'campaign',
				utmCampaign: 'sunday',
				stopWords: 'STOP, Basta; unsubscribe',
				optOutConfirmation: 'Done: no more offers.',
				startAt: '2026-12-06T09:00:00+01:00',
			},
		}),
		{ credentials, items },
	);

	expect(result.error).toBeUndefined();
	const { recipients, ...settings } = seen[0].body;
	expect(settings).toEqual({
		name: 'Sunday offer',
		reference: 'sunday-offer-2026-12-06',
		message: {
			media: {
				url: 'https://example.com/offer.jpg',
				mediaType: 'image',
				caption: 'For you, {{name}}',
				fileName: 'offer.jpg',
			},
		},
		pacing: { perMinute: 30, jitterSeconds: 5 },
		// The workflow's time zone when none is given (n8n's default in the harness).
		window: { from: '09:00', to: '18:30', timeZone: 'America/New_York' },
		links: { track: true, utm: { source: 'whatsapp', medium: 'campaign', campaign: 'sunday' } },
		optOut: { stopWords: ['STOP', 'Basta', 'unsubscribe'], confirmation: 'Done: no more offers.' },
	});
	expect((recipients as Recipient[])[0].variables).not.toHaveProperty('notes');
	expect(seen[1]).toEqual({
		path: '/api/v1/campaigns/cmp_1/start',
		body: { startAt: '2026-12-06T09:00:00.000+01:00' },
	});
});

test('To read from a plain field of the item, or evaluated by n8n: the same recipients', async () => {
	const items = [
		{ contact: { phone: '+14155550401' } },
		{ contact: {} },
		{ contact: { phone: 14155550403 } },
	];
	const recipientsOf = async (to: string) => {
		const seen = service({ created: true, adds: 0 });
		const result = await runNode(createNode({ to, variables: 'none' }), { credentials, items });
		expect(result.error).toBeUndefined();
		return { sent: seen[0].body.recipients, notAdded: result.json(NODE_NAME)[0].notAdded };
	};
	const read = await recipientsOf('={{ $json.contact.phone }}');
	expect(read).toEqual({
		sent: [{ to: '+14155550401' }, { to: '+14155550403' }],
		notAdded: [expect.objectContaining({ itemIndex: 1, result: 'unreadable' })],
	});
	expect(await recipientsOf("={{ $json['contact']['phone'] }}")).toEqual(read);
});
