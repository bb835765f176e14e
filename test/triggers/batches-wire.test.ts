/**
 * Batch Events on the wire (nock): the Automation Trigger registers `batch: { maxEvents, maxWaitSeconds }` beside
 * its events and secret, and no `batch` without the option; a batch delivery (`automation.batch`, `batch: true`,
 * `data.events`) is claimed once, by the batch's id, and runs once with one item per event, each the item the
 * event makes delivered alone.
 */
import nock from 'nock';
import type { INodeParameters } from 'n8n-workflow';

import { answer, eventBody, registrations, SERVICE, useWire } from '../support/trigger-wire';

// nock patches Node's http for the whole worker: undone when this file ends (test/nodes/quiet.test.ts).
afterAll(() => nock.restore());
const wire = useWire();

async function registered(options: INodeParameters) {
	const sent = registrations('automation', 'wh_batch', { signedClaims: true });
	const node = wire.trigger('automation', { listenTo: 'all', options });
	await node.activate();
	return sent[0].body as Record<string, unknown>;
}

it('registers with batch: { maxEvents, maxWaitSeconds }, and without it when the option is not added', async () => {
	const sent = await registered({ batch: { settings: { maxEvents: 100, maxWaitSeconds: 5 } } });
	expect(sent.batch).toEqual({ maxEvents: 100, maxWaitSeconds: 5 });
	expect(sent.events).toEqual(['automation.*']);
	expect(await registered({})).not.toHaveProperty('batch');
});

it('claims a batch once, by its id, and runs it once with an item per event, each as alone', async () => {
	const { node, secret } = await wire.activated('automation', {
		webhookId: 'wh_batched',
		parameters: { listenTo: 'all' },
	});
	const claims = answer(
		nock(SERVICE).post('/api/v1/automation/webhooks/wh_batched/signed-claims'),
		(body) => [200, { eventId: body.eventId, claimed: true, claimedAt: new Date().toISOString() }],
	);
	const events = [1, 2, 3].map((n) =>
		JSON.parse(eventBody('automation.order.paid', { name: 'order.paid', payload: { n } })),
	);
	const batch = JSON.stringify({
		id: 'evt_the_batch',
		type: 'automation.batch',
		batch: true,
		createdAt: new Date().toISOString(),
		workspaceId: 'ws_1',
		data: { count: 3, events, firstAt: events[0].createdAt, lastAt: events[2].createdAt },
	});
	const delivered = await wire.deliver(node, batch, { secret });
	expect(claims.map(({ body }) => (body as { eventId: string }).eventId)).toEqual([
		'evt_the_batch',
	]);
	expect(delivered.items).toHaveLength(3);
	expect(claims).toHaveLength(1);

	answer(nock(SERVICE).post('/api/v1/automation/webhooks/wh_batched/signed-claims'), (body) => [
		200,
		{ eventId: body.eventId, claimed: true, claimedAt: new Date().toISOString() },
	]);
	const alone = await wire.deliver(node, JSON.stringify(events[0]), { secret });
	expect(delivered.items?.[0].json).toEqual(alone.items?.[0].json);
	expect(delivered.items?.map((item) => item.json.id)).toEqual(events.map((event) => event.id));
});
