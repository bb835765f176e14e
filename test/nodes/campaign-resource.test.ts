/**
 * The Campaign and Opt-Out resources of the Multichannel node, run as real workflows through n8n-core against the
 * sandbox on loopback: Create makes one campaign of the input items (each with its variables, an unreadable
 * number reported for its item), a re-run adds only the new items, and Get, Get Many, Get Recipients, Pause,
 * Resume and Cancel follow and steer it; an opted-out number is kept and skipped, and Opt-Out's Add, Check,
 * Get Many and Remove manage the list. As an AI agent's tool, Get, Get Recipients and Check answer; Create is
 * refused. The exact requests are in campaign-wire.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	byId,
	expectNoSecrets,
	NODE_NAME,
	registerToolVariant,
	useResource,
} from '../support/nodes';

const campaigns = useResource('campaign', { instance: 'Campaigns' });
/** The Opt-Out resource, on the same sandbox. */
const optOuts = {
	run: async (parameters: IDataObject) =>
		await campaigns.run({ resource: 'optOut', ...parameters }),
};

const customers: IDataObject[] = [
	{ phone: '+14155550301', name: 'Ana', plan: 'gold' },
	{ phone: '+1 415 555 03', name: 'Ben', plan: 'silver' }, // cut short
	{ phone: '(415) 555-0303', name: 'Cleo', plan: 'gold' }, // national: read in the Default Country
];

/** Campaign → Create of the items, starting in an hour (so that nothing is sent while the test looks). */
const create = async (items: IDataObject[], name = 'Winter sale') =>
	await campaigns.run(
		{
			operation: 'create',
			name,
			to: '={{ $json.phone }}',
			variables: 'chosenFields',
			variableFields: 'name',
			// As a person types a placeholder in Fixed mode.
			text: 'Hi {{name}}, the winter sale starts today',
			perMinute: 1,
			defaultCountry: 'US',
			options: { startAt: new Date(Date.now() + 3_600_000).toISOString(), trackLinks: false },
		},
		items,
	);

test('Create: one campaign of every item, with its variables; a re-run adds only the new item', async () => {
	const first = await create(customers);
	expect(first.error).toBeUndefined();
	const [made] = first.json(NODE_NAME);
	expect(made).toMatchObject({
		name: 'Winter sale',
		status: 'running',
		created: true,
		added: { accepted: 2, duplicate: 0, invalid: 0, unreadable: 1 },
		notAdded: [{ itemIndex: 1, to: '+1 415 555 03', result: 'unreadable' }],
		counts: { recipients: 2, queued: 2 },
	});
	expectNoSecrets(first, [campaigns.service.apiKey]);

	const again = await create([...customers, { phone: '+14155550304', name: 'Dan' }]);
	expect(again.error).toBeUndefined();
	expect(again.json(NODE_NAME)).toEqual([
		expect.objectContaining({
			id: made.id,
			created: false,
			added: expect.objectContaining({ accepted: 1, duplicate: 2, unreadable: 1 }),
			counts: expect.objectContaining({ recipients: 3 }),
		}),
	]);

	const recipients = await campaigns.run({
		operation: 'getRecipients',
		campaignId: byId(made.id as string),
		returnAll: true,
	});
	expect(
		recipients.json(NODE_NAME).map(({ to, variables, state }) => [to, variables, state]),
	).toEqual([
		['+14155550301', { name: 'Ana' }, 'queued'],
		['+14155550303', { name: 'Cleo' }, 'queued'],
		['+14155550304', { name: 'Dan' }, 'queued'],
	]);
});

test('Get, Get Many, Pause, Resume and Cancel follow and steer a campaign', async () => {
	const [made] = (await create([{ phone: '+14155550311', name: 'Eve' }], 'Steered')).json(
		NODE_NAME,
	);
	const campaign = byId(made.id as string);
	const statusAfter = async (operation: string) => {
		const result = await campaigns.run({ operation, campaignId: campaign });
		expect(result.error).toBeUndefined();
		return result.json(NODE_NAME)[0].status;
	};

	expect(await statusAfter('pause')).toBe('paused');
	expect(await statusAfter('get')).toBe('paused');
	const paused = await campaigns.run({
		operation: 'getAll',
		returnAll: true,
		filters: { status: 'paused', instanceId: campaigns.instance.id },
	});
	expect(paused.json(NODE_NAME).map(({ id }) => id)).toEqual([made.id]);
	expect(await statusAfter('resume')).toBe('running');
	expect(await statusAfter('cancel')).toBe('cancelled');

	const skipped = await campaigns.run({
		operation: 'getRecipients',
		campaignId: campaign,
		returnAll: true,
		filters: { state: 'skipped' },
	});
	expect(skipped.json(NODE_NAME)).toEqual([
		expect.objectContaining({ to: '+14155550311', reason: 'cancelled' }),
	]);
});

test('Opt-Out: Add, Check, Get Many, Remove; a campaign keeps an opted-out number and skips it', async () => {
	const number = { phone: '(415) 555-0321', defaultCountry: 'US' };
	const added = await optOuts.run({ operation: 'add', ...number, options: { reason: 'Asked' } });
	expect(added.error).toBeUndefined();
	expect(added.json(NODE_NAME)).toEqual([
		expect.objectContaining({
			phone: '+14155550321',
			optedOut: true,
			source: 'api',
			reason: 'Asked',
		}),
	]);

	const created = await create([{ phone: '+14155550321', name: 'Fay' }], 'After the opt-out');
	expect(created.json(NODE_NAME)[0]).toMatchObject({ added: { opted_out: 1, accepted: 0 } });

	const listed = await optOuts.run({ operation: 'getAll', returnAll: true });
	expect(listed.json(NODE_NAME).map(({ phone }) => phone)).toContain('+14155550321');

	const removed = await optOuts.run({ operation: 'remove', ...number });
	expect(removed.json(NODE_NAME)).toEqual([
		expect.objectContaining({ phone: '+14155550321', optedOut: false }),
	]);
	const checked = await optOuts.run({ operation: 'check', ...number });
	expect(checked.json(NODE_NAME)).toEqual([
		expect.objectContaining({ phone: '+14155550321', optedOut: false }),
	]);

	// A number the node cannot read names the field and the item.
	const unreadable = await optOuts.run({ operation: 'check', phone: '555-0321' });
	expect(unreadable.error?.message).toMatch(/^Invalid value for "Phone Number" \[item 0\]: /);
});

test("as an AI agent's tool: Get, Get Recipients and Check answer; Create is refused", async () => {
	const { type } = await registerToolVariant();
	const [made] = (await create([{ phone: '+14155550331', name: 'Gus' }], 'For the agent')).json(
		NODE_NAME,
	);
	const asTool = async (parameters: IDataObject) =>
		await campaigns.run(parameters, undefined, { type });

	const got = await asTool({ operation: 'get', campaignId: byId(made.id as string) });
	expect(got.json(NODE_NAME)).toEqual([
		expect.objectContaining({ id: made.id, status: 'running' }),
	]);
	const recipients = await asTool({
		operation: 'getRecipients',
		campaignId: byId(made.id as string),
		returnAll: false,
		limit: 5,
	});
	expect(recipients.json(NODE_NAME)).toEqual([expect.objectContaining({ to: '+14155550331' })]);
	const checked = await asTool({ resource: 'optOut', operation: 'check', phone: '+14155550331' });
	expect(checked.json(NODE_NAME)).toEqual([expect.objectContaining({ optedOut: false })]);

	const refused = await asTool({
		operation: 'create',
		name: 'By the agent',
		to: '+14155550332',
		text: 'Hi',
	});
	expect(refused.error?.message).toBe('Campaign → Create cannot be used as a tool');
});
