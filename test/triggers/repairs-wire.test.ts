/**
 * What a delivery repairs at the service, on the wire (nock). (a) An event the node's events or filters leave
 * out means its webhook was changed there: `PATCH …/webhooks/{id}` with the node's events, filters and
 * gathering, with the API key, and the delivery is acknowledged as before; a failed PATCH changes nothing for
 * the delivery. (b) n8n moved while the service still delivers to the old address: a production registration
 * kept under a URL n8n no longer gives the node, and a request sent to that URL's host (X-Forwarded-Host):
 * `PATCH` with the current URL, static data left as it is (n8n would save the delivery's copy over a newer
 * registration), and the event runs; never back to a URL the registration was made after (`formerUrls`).
 * Neither happens for what does not show it.
 */
import nock from 'nock';

import { logLines, type TriggerUnderTest } from '../../dev/harness/triggers';
import { answer, eventBody, SERVICE, SURFACES, useWire, type Seen } from '../support/trigger-wire';
import { testKey } from '../support/client';

// nock patches Node's http for the whole worker: undone when this file ends (test/nodes/quiet.test.ts).
afterAll(() => nock.restore());
const wire = useWire();

/** The PATCHes of a webhook the service receives, answered `status`. */
function updates(surface: 'automation' | 'messaging', webhookId: string, status = 200): Seen[] {
	return answer(
		nock(SERVICE).patch(`${SURFACES[surface].path}/${webhookId}`),
		(body) => [
			status,
			status === 200 ? { id: webhookId, ...body } : { error: { code: 'internal' } },
		],
		5,
	);
}

/** The signed claims of a webhook, each answered as the first. */
function claims(surface: 'automation' | 'messaging', webhookId: string): Seen[] {
	return answer(
		nock(SERVICE).post(`${SURFACES[surface].path}/${webhookId}/signed-claims`),
		(body) => [200, { eventId: body.eventId, claimed: true, claimedAt: new Date().toISOString() }],
		5,
	);
}

describe('(a) events changed at the service', () => {
	it('an event type the node did not choose: its events are set back, with the key; the delivery is acknowledged', async () => {
		const { node, secret } = await wire.activated('automation', {
			webhookId: 'wh_events',
			parameters: { listenTo: 'chosen', eventNames: 'order.created' },
		});
		const patched = updates('automation', 'wh_events');

		const delivery = await wire.deliver(
			node,
			eventBody('automation.order.paid', { id: 'aev_1', payload: {} }),
			{ secret, deliveryId: 'dlr_repair_a' },
		);

		expect(patched.map(({ body }) => body)).toEqual([{ events: ['automation.order.created'] }]);
		expect(patched[0].headers.authorization).toBe(`Bearer ${SURFACES.automation.key}`);
		expect(delivery.status).toBe(200);
		expect(delivery.items).toBeUndefined();
		expect(delivery.responseHeaders['x-multichannel-ack']).toBe('dlr_repair_a');
	});

	it('an instance its filter leaves out: events, filters and gathering set back together', async () => {
		const { node, secret } = await wire.activated('messaging', {
			webhookId: 'wh_filters',
			parameters: {
				events: ['message.received'],
				instanceIds: ['inst_chosen'],
				options: { gather: { settings: { quietSeconds: 3, maxWaitSeconds: 30 } } },
			},
		});
		const patched = updates('messaging', 'wh_filters');

		const delivery = await wire.deliver(
			node,
			eventBody('message.received', { id: 'msg_1', instanceId: 'inst_other' }),
			{ secret },
		);

		expect(patched.map(({ body }) => body)).toEqual([
			{
				events: ['message.received'],
				filters: { instanceIds: ['inst_chosen'] },
				gather: { quietSeconds: 3, maxWaitSeconds: 30 },
			},
		]);
		expect(JSON.parse(delivery.responseBody)).toMatchObject({ reason: 'instance not chosen' });
	});

	it('a PATCH the service refuses is logged without the key, and the delivery is acknowledged all the same', async () => {
		const { node, secret } = await wire.activated('automation', {
			webhookId: 'wh_refused',
			parameters: { listenTo: 'chosen', eventNames: 'order.created' },
		});
		const patched = updates('automation', 'wh_refused', 500);

		const delivery = await wire.deliver(
			node,
			eventBody('automation.order.paid', { id: 'aev_2', payload: {} }),
			{ secret, deliveryId: 'dlr_refused' },
		);

		expect(patched).toHaveLength(1);
		expect(delivery.status).toBe(200);
		expect(delivery.responseHeaders['x-multichannel-ack']).toBe('dlr_refused');
		expect(logLines.some((line) => /could not set the events and filters/.test(line))).toBe(true);
		expect(logLines.join('\n')).not.toContain(SURFACES.automation.key);
		expect(logLines.join('\n')).not.toContain(secret);
	});

	it('an event the node takes changes nothing at the service', async () => {
		const { node, secret } = await wire.activated('automation', {
			webhookId: 'wh_fine',
		});
		const patched = updates('automation', 'wh_fine');
		claims('automation', 'wh_fine');
		const delivery = await wire.deliver(
			node,
			eventBody('automation.order.paid', { id: 'aev_3', payload: {} }),
			{ secret },
		);
		expect(delivery.items).toHaveLength(1);
		expect(patched).toEqual([]);
	});
});

describe('(b) n8n moved, the service still delivers to the old address', () => {
	const OLD_HOST = 'old-n8n.example';
	const SECRET = testKey('whsec');

	/** A trigger whose production registration is kept under the URL it had at OLD_HOST (or `at`). */
	function movedTrigger(
		webhookId: string,
		at?: (current: URL) => string,
	): { node: TriggerUnderTest; oldUrl: string } {
		const node = wire.trigger('automation');
		const current = new URL(node.webhookUrl());
		const oldUrl = at ? at(current) : `https://${OLD_HOST}${current.pathname}`;
		wire.store(node, {
			[oldUrl]: {
				webhookId,
				secret: SECRET,
				events: ['automation.*'],
				mode: 'production',
				serviceUrl: SERVICE,
				signedClaims: true,
			},
		});
		return { node, oldUrl };
	}

	it('sets the webhook’s URL to the current one and runs the event; static data is left as it was', async () => {
		const { node, oldUrl } = movedTrigger('wh_moved');
		const patched = updates('automation', 'wh_moved');
		const claimed = claims('automation', 'wh_moved');
		const before = JSON.stringify(node.staticData);

		const first = await wire.deliver(
			node,
			eventBody('automation.order.created', { id: 'aev_4', payload: {} }),
			{ secret: SECRET, headers: { 'x-forwarded-host': OLD_HOST } },
		);

		expect(patched.map(({ body: sent }) => sent)).toEqual([{ url: node.webhookUrl() }]);
		expect(patched[0].headers.authorization).toBe(`Bearer ${SURFACES.automation.key}`);
		expect(first.items).toHaveLength(1);
		expect(claimed).toHaveLength(1);
		expect(JSON.stringify(node.staticData)).toBe(before);
		expect(oldUrl).not.toBe(node.webhookUrl());

		// The next event, to the current URL: nothing more to move.
		const again = await wire.deliver(
			node,
			eventBody('automation.order.created', { id: 'aev_4b', payload: {} }),
			{ secret: SECRET },
		);
		expect(again.items).toHaveLength(1);
		expect(patched).toHaveLength(1);
	});

	it('never moves it back to a URL the registration was made after: a process older than it', async () => {
		const node = wire.trigger('automation');
		const newer = `https://new-n8n.example${new URL(node.webhookUrl()).pathname}`;
		wire.store(node, {
			[newer]: {
				webhookId: 'wh_newer',
				secret: SECRET,
				events: ['automation.*'],
				mode: 'production',
				serviceUrl: SERVICE,
				signedClaims: true,
				formerUrls: [node.webhookUrl()],
			},
		});
		const patched = updates('automation', 'wh_newer');
		claims('automation', 'wh_newer');

		const delivery = await wire.deliver(
			node,
			eventBody('automation.order.created', { id: 'aev_8', payload: {} }),
			{ secret: SECRET, headers: { 'x-forwarded-host': 'new-n8n.example' } },
		);

		expect(delivery.items).toHaveLength(1);
		expect(patched).toEqual([]);
	});

	it('changes nothing when the request came to the current host, or the service refuses the PATCH', async () => {
		const { node, oldUrl } = movedTrigger('wh_not_moved');
		const patched = updates('automation', 'wh_not_moved', 500);
		claims('automation', 'wh_not_moved');
		const current = new URL(node.webhookUrl()).host;

		const toCurrent = await wire.deliver(
			node,
			eventBody('automation.order.created', { id: 'aev_5', payload: {} }),
			{ secret: SECRET, headers: { 'x-forwarded-host': current } },
		);
		expect(toCurrent.items).toHaveLength(1);
		expect(patched).toEqual([]);

		const refused = await wire.deliver(
			node,
			eventBody('automation.order.created', { id: 'aev_6', payload: {} }),
			{ secret: SECRET, headers: { 'x-forwarded-host': OLD_HOST } },
		);
		expect(patched).toHaveLength(1);
		expect(refused.items).toHaveLength(1);
		expect(Object.keys(node.nodeStaticData().webhooks as object)).toEqual([oldUrl]);
	});

	it('changes nothing when only the path moved: the request came to the host of both URLs', async () => {
		const { node } = movedTrigger(
			'wh_same_host',
			(current) => `${current.origin}/old-prefix${current.pathname}`,
		);
		const patched = updates('automation', 'wh_same_host');
		claims('automation', 'wh_same_host');
		const delivery = await wire.deliver(
			node,
			eventBody('automation.order.created', { id: 'aev_7', payload: {} }),
			{ secret: SECRET, headers: { 'x-forwarded-host': new URL(node.webhookUrl()).host } },
		);
		expect(delivery.items).toHaveLength(1);
		expect(patched).toEqual([]);
	});
});
