/**
 * One deadline per delivery, on the wire (nock, real time): the claim and the files of Download Media share
 * 7 s from the start of `webhook()`, well inside the service's 10 s. A 429 whose Retry-After would end past it
 * is not waited for: the delivery is answered 503 at once and nothing runs; a short one is waited for. A file
 * still downloading when the deadline comes is not attached, and the claimed event runs all the same, its item
 * saying why.
 */
import { createHash } from 'node:crypto';

import nock from 'nock';

import { answer, eventBody, SERVICE, SURFACES, useWire } from '../support/trigger-wire';

// nock patches Node's http for the whole worker: undone when this file ends (test/nodes/quiet.test.ts).
afterAll(() => nock.restore());
const wire = useWire();

const claimed = (body: Record<string, unknown>): [number, unknown] => [
	200,
	{ eventId: body.eventId, claimed: true, claimedAt: new Date().toISOString() },
];
const rateLimited = (seconds: string): [number, unknown, Record<string, string>] => [
	429,
	{ error: { code: 'rate_limited', message: 'Slow down' } },
	{ 'Retry-After': seconds },
];

it('a claim answered 429 with Retry-After: 20 is not waited for: 503 at once, nothing run', async () => {
	const { node, secret } = await wire.activated('automation', { webhookId: 'wh_busy' });
	const path = `${SURFACES.automation.path}/wh_busy/signed-claims`;
	const seen = answer(nock(SERVICE).post(path), () => rateLimited('20'));
	const spare = nock(SERVICE).post(path).reply(200, {});

	const started = Date.now();
	const delivery = await wire.deliver(
		node,
		eventBody('automation.order.created', { id: 'aev_1', payload: {} }),
		{ secret },
	);

	expect(Date.now() - started).toBeLessThan(7_000);
	expect(delivery.status).toBe(503);
	expect(delivery.items).toBeUndefined();
	expect(delivery.responseHeaders).not.toHaveProperty('x-multichannel-ack');
	expect(seen).toHaveLength(1);
	expect(spare.isDone()).toBe(false);
});

it('a claim answered 429 with Retry-After: 1 is waited for and tried again within the deadline', async () => {
	const { node, secret } = await wire.activated('automation', { webhookId: 'wh_slow' });
	const path = `${SURFACES.automation.path}/wh_slow/signed-claims`;
	answer(nock(SERVICE).post(path), () => rateLimited('1'));
	const second = answer(nock(SERVICE).post(path), claimed);

	const delivery = await wire.deliver(
		node,
		eventBody('automation.order.created', { id: 'aev_2', payload: {} }),
		{ secret },
	);

	expect(second).toHaveLength(1);
	expect(delivery.items).toHaveLength(1);
});

it('the download of a file gets what the claim left of the deadline: the event runs at 7 s without it, saying why', async () => {
	const { node, secret } = await wire.activated('messaging', {
		webhookId: 'wh_media',
		parameters: { events: ['message.received'], options: { downloadMedia: true } },
	});
	// The claim takes 3.5 s, the file 4.2 s: alone, a download may take 5 s, and this one would be attached.
	const bytes = Buffer.from('late bytes');
	nock(SERVICE)
		.post(`${SURFACES.messaging.path}/wh_media/signed-claims`)
		.delay(3_500)
		.reply(200, (_uri, body) => claimed(body as Record<string, unknown>)[1] as object);
	nock(SERVICE)
		.get('/api/v1/signed-media/tok_slow')
		.delay(4_200)
		.reply(200, bytes, { 'Content-Type': 'application/pdf' });

	const started = Date.now();
	const delivery = await wire.deliver(
		node,
		eventBody('message.received', {
			id: 'msg_1',
			instanceId: 'inst_1',
			media: {
				id: 'med_1',
				mimeType: 'application/pdf',
				size: bytes.length,
				sha256: createHash('sha256').update(bytes).digest('hex'),
				downloadUrl: `${SERVICE}/api/v1/signed-media/tok_slow`,
			},
		}),
		{ secret, deliveryId: 'dlr_media' },
	);
	const elapsed = Date.now() - started;

	expect(elapsed).toBeGreaterThan(6_500);
	expect(elapsed).toBeLessThan(7_500);
	expect(delivery.items).toHaveLength(1);
	const [item] = delivery.items ?? [];
	expect(item.binary).toBeUndefined();
	expect(item.json.mediaNotAttached).toMatch(/could not be downloaded/);
	expect(delivery.responseHeaders['x-multichannel-ack']).toBe('dlr_media');
}, 20_000);
