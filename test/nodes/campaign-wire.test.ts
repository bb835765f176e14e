/**
 * Campaign → Create on the wire, with nock: every input item is a recipient of one campaign, sent in calls of
 * 1,000 (2,500 items are one create, two adds and one start: 4 requests, not 2,500); a re-run finds the campaign
 * by its derived reference, creates nothing and says so; a number that cannot be read, or one the service
 * refuses, is reported for its item while the others go. The same operation against the sandbox is in
 * campaign-resource.test.ts.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../dev/harness';
import { nockOnly } from '../support/client';
import { expectNoSecrets, NODE_NAME } from '../support/nodes';
import {
	API_KEY,
	callsOf,
	CREATE_ADD_ADD_START,
	createNode,
	credentials,
	people,
	service,
	answered,
	BASE_URL,
	campaign,
	type Recipient,
	type Seen,
	derivedReference,
} from '../support/campaign-service';

// nock patches Node's http for the whole worker: undone when this file ends (test/nodes/quiet.test.ts).
afterAll(() => nock.restore());

nockOnly();

test('2,500 items: one create with 1,000, two adds (1,000 and 500), one start; one output item', async () => {
	const seen = service({ created: true, adds: 2 });
	const items = people(2500);

	const result = await runNode(createNode(), { credentials, items });

	expect(result.error).toBeUndefined();
	expect(callsOf(seen)).toEqual(CREATE_ADD_ADD_START);
	const { recipients, ...settings } = seen[0].body;
	expect(settings).toEqual({
		name: 'Sunday offer',
		message: { text: 'Hi {{name}}, our Sunday offer is on' },
		pacing: { perMinute: 30, jitterSeconds: 5 },
		reference: derivedReference,
	});
	// Each item's text and number fields are its variables; the nested one is not.
	expect((recipients as Recipient[])[7]).toEqual({
		to: '+14155550007',
		variables: { phone: '+14155550007', name: 'Person 7', visits: '7' },
	});
	// Every item once, in input order, over the calls.
	const sentTo = seen.flatMap(({ body }) => (body.recipients as Recipient[] | undefined) ?? []);
	expect(sentTo.map(({ to }) => to)).toEqual(items.map(({ phone }) => phone));
	expect(seen[3].body).toEqual({});

	const output = result.output(NODE_NAME);
	expect(output).toHaveLength(1);
	expect(output[0].json).toMatchObject({
		id: 'cmp_1',
		status: 'running',
		created: true,
		added: { accepted: 2500, duplicate: 0, invalid: 0, unreadable: 0 },
		notAdded: [],
	});
	// One output item, made from every input item.
	expect(output[0].pairedItem).toHaveLength(2500);
	expectNoSecrets(result, [API_KEY]);
});

test('a re-run: the same reference finds the campaign; nothing is created, every item comes back a duplicate', async () => {
	const seen = service({ created: false, adds: 3, resultOf: () => ['duplicate', null] });

	const result = await runNode(createNode(), { credentials, items: people(2500) });

	expect(result.error).toBeUndefined();
	// The create's 1,000 recipients too: the campaign found took none of them.
	expect(callsOf(seen)).toEqual([
		['/api/v1/instances/inst_1/campaigns', 1000],
		['/api/v1/campaigns/cmp_1/recipients', 1000],
		...CREATE_ADD_ADD_START.slice(1),
	]);
	expect(seen[0].body.reference).toBe(derivedReference);
	expect(result.json(NODE_NAME)).toEqual([
		expect.objectContaining({
			created: false,
			added: expect.objectContaining({ accepted: 0, duplicate: 2500 }),
			notAdded: [],
		}),
	]);
});

test('numbers that cannot be used are reported per item, and the campaign goes to the others', async () => {
	const items = people(7);
	items[1].phone = '+1 415 555 01'; // cut short: never sent
	items[6].phone = '@maria.lopez'; // a person without their number: campaigns go to numbers only
	items[2].phone = '(415) 555-0102'; // national: read in the Default Country (US)
	items[4].phone = '14155550102@s.whatsapp.net'; // the same person as item 2, by their chat ID
	delete items[3].name; // the message needs {{name}}: the service refuses this one
	const seen = service({
		created: true,
		adds: 0,
		resultOf: ({ to, variables }) =>
			to === '+14155550102' && variables?.name === 'Person 4'
				? ['duplicate', null]
				: variables?.name === undefined
					? ['invalid', 'missing_variable: name']
					: ['accepted', null],
	});

	const result = await runNode(
		createNode({ variables: 'chosenFields', variableFields: 'name', defaultCountry: 'US' }),
		{ credentials, items },
	);

	expect(result.error).toBeUndefined();
	expect((seen[0].body.recipients as Recipient[]).map(({ to }) => to)).toEqual([
		'+14155550000',
		'+14155550102',
		'+14155550003',
		'+14155550102',
		'+14155550005',
	]);
	expect(result.json(NODE_NAME)).toEqual([
		expect.objectContaining({
			created: true,
			added: {
				accepted: 3,
				duplicate: 1,
				invalid: 1,
				opted_out: 0,
				closed: 0,
				refused: 0,
				unreadable: 2,
			},
			notAdded: [
				{
					itemIndex: 1,
					to: '+1 415 555 01',
					result: 'unreadable',
					reason: expect.stringContaining('+1 415 555 01'),
				},
				{ itemIndex: 3, to: '+14155550003', result: 'invalid', reason: 'missing_variable: name' },
				{
					itemIndex: 6,
					to: '@maria.lopez',
					result: 'unreadable',
					reason: expect.stringContaining('a campaign goes to phone numbers only'),
				},
			],
		}),
	]);
});

test('no item with a usable number: an error naming To and the first item, and nothing sent', async () => {
	const result = await runNode(createNode(), {
		credentials,
		items: [{ phone: 'call me' }, { phone: '' }],
	});

	expect(result.error?.message).toBe(
		'Invalid value for "To" [item 0]: no input item has a phone number the campaign can use: "call me" is not a valid phone number. ' +
			'It may contain only digits, a leading + or 00, spaces, dashes, dots and parentheses; enter it with its country code, such as +14155550123 or 0044 20 7946 0958.',
	);
});

test('a call failing half-way starts nothing; running again finds the campaign and finishes it', async () => {
	const seen: Seen[] = [];
	nock(BASE_URL)
		.post('/api/v1/instances/inst_1/campaigns')
		.reply((path, body) => {
			seen.push({ path, body: body as IDataObject });
			const recipients = (body as { recipients: Recipient[] }).recipients;
			return [
				201,
				{ campaign: campaign('scheduled'), created: true, recipients: answered(recipients) },
			];
		})
		.post('/api/v1/campaigns/cmp_1/recipients')
		.reply(500, { error: { code: 'internal', message: 'Something broke', requestId: 'req_1' } });

	const failed = await runNode(createNode(), { credentials, items: people(1500) });
	expect(failed.error?.message).toBe(
		'The Multichannel service failed to handle the request (HTTP 500): try again later',
	);
	expect(failed.error?.description).toMatch(
		/The campaign cmp_1 is made .* it was not started by this run\. Run the workflow again: it finds this campaign, adds the recipients it lacks and starts it/,
	);
	expect(seen).toHaveLength(1); // and no start: nobody is sent anything

	const again = service({
		created: false,
		adds: 2,
		resultOf: ({ to }) => [to < '+14155551000' ? 'duplicate' : 'accepted', null],
	});
	const finished = await runNode(createNode(), { credentials, items: people(1500) });
	expect(finished.error).toBeUndefined();
	expect(callsOf(again)).toEqual([
		['/api/v1/instances/inst_1/campaigns', 1000],
		['/api/v1/campaigns/cmp_1/recipients', 1000],
		['/api/v1/campaigns/cmp_1/recipients', 500],
		['/api/v1/campaigns/cmp_1/start', undefined],
	]);
	expect(finished.json(NODE_NAME)[0]).toMatchObject({
		created: false,
		added: { accepted: 500, duplicate: 1000 },
	});
});

test('a re-run failing half-way on a campaign already running says it runs on, not that it was not started', async () => {
	nock(BASE_URL)
		.post('/api/v1/instances/inst_1/campaigns')
		.reply(200, { campaign: campaign('running'), created: false, recipients: [] })
		.post('/api/v1/campaigns/cmp_1/recipients')
		.reply(500, { error: { code: 'internal', message: 'Something broke', requestId: 'req_1' } });

	const failed = await runNode(createNode(), { credentials, items: people(10) });
	expect(failed.error?.description).toContain(
		'The campaign cmp_1 was already running before this run, and holds the recipients added so far; this run did not add all of its items. Run the workflow again: it finds this campaign, adds the recipients it lacks (those already in it are not sent twice).',
	);
	expect(failed.error?.description).not.toContain('not started');
});
