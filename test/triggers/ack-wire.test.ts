/**
 * The trigger's answers on the wire (nock for the service, the stand-in for n8n's endpoint on loopback): every
 * delivery it takes — run, a duplicate, an event it did not choose, a ping — is acknowledged with the request's
 * delivery id, in the `X-Multichannel-Ack` header and as `acknowledged` in the JSON body, also when n8n answers
 * for an execution it starts. Refusals (401, 400, 503) never are, nor is a request without a delivery id. A
 * claim another attempt holds (`claimed: false, final: false`) and a 409 of the claim (`attempt_closed`,
 * `claim_replayed`) are answered 503 with nothing run, so that the service delivers the event again.
 */
import nock from 'nock';

import { answer, eventBody, SERVICE, SURFACES, useWire, type Seen } from '../support/trigger-wire';
import { testKey } from '../support/client';
import type { Delivery, TriggerUnderTest } from '../../dev/harness/triggers';

// nock patches Node's http for the whole worker: undone when this file ends (test/nodes/quiet.test.ts).
afterAll(() => nock.restore());
const wire = useWire();
const CLAIMS = `${SURFACES.automation.path}/wh_automation/signed-claims`;

let node: TriggerUnderTest;
let secret: string;
beforeAll(async () => {
	({ node, secret } = await wire.activated('automation', {
		parameters: { listenTo: 'chosen', eventNames: 'order.created' },
	}));
});

const orderCreated = () => eventBody('automation.order.created', { id: 'aev_1', payload: {} });

/** The service's claim endpoint answering `claimed` (and `final`, when given) to the next claim. */
function claims(claimed: boolean, final?: boolean): Seen[] {
	return answer(nock(SERVICE).post(CLAIMS), (body) => [
		200,
		{
			eventId: body.eventId,
			claimed,
			claimedAt: new Date().toISOString(),
			...(final === undefined ? {} : { final }),
		},
	]);
}

function expectAcknowledged(delivery: Delivery, deliveryId: string, body: object) {
	expect(delivery.status).toBe(200);
	expect(delivery.responseHeaders['x-multichannel-ack']).toBe(deliveryId);
	expect(JSON.parse(delivery.responseBody)).toEqual({
		received: true,
		...body,
		acknowledged: deliveryId,
	});
}

function expectUnacknowledged(delivery: Delivery, status: number) {
	expect(delivery.status).toBe(status);
	expect(delivery.items).toBeUndefined();
	expect(delivery.responseHeaders).not.toHaveProperty('x-multichannel-ack');
	expect(delivery.responseBody).not.toContain('acknowledged');
}

describe('taken: acknowledged', () => {
	it('an event that runs: n8n answers with the acknowledgement while it starts the execution', async () => {
		const seen = claims(true, false);
		const delivery = await wire.deliver(node, orderCreated(), {
			secret,
			deliveryId: 'dlr_run_1',
		});
		expect(delivery.items).toHaveLength(1);
		expectAcknowledged(delivery, 'dlr_run_1', { executed: true });
		// The claim names the attempt it is a lease on.
		expect(seen[0].body).toMatchObject({ deliveryId: 'dlr_run_1' });
	});

	it('a duplicate, whether the service says the claim is final or says nothing of it', async () => {
		for (const final of [true, undefined]) {
			claims(false, final);
			const delivery = await wire.deliver(node, orderCreated(), {
				secret,
				deliveryId: `dlr_dup_${String(final)}`,
			});
			expect(delivery.items).toBeUndefined();
			expectAcknowledged(delivery, `dlr_dup_${String(final)}`, {
				executed: false,
				reason: 'duplicate',
			});
		}
	});

	it('an event the node did not choose (nothing claimed)', async () => {
		// The node's events are set back at the service (repairs-wire.test.ts pins that request).
		nock(SERVICE)
			.patch(`${SURFACES.automation.path}/wh_automation`)
			.reply(200, { id: 'wh_automation' });
		const delivery = await wire.deliver(
			node,
			eventBody('automation.order.paid', { id: 'aev_2', payload: {} }),
			{ secret, deliveryId: 'dlr_other_1' },
		);
		expect(delivery.items).toBeUndefined();
		expectAcknowledged(delivery, 'dlr_other_1', {
			executed: false,
			reason: 'event type automation.order.paid not chosen',
		});
	});

	it('a ping: nothing claimed, no credential read, nothing run; answered with the URL n8n gives the trigger', async () => {
		const delivery = await wire.deliver(node, eventBody('ping', {}), {
			secret,
			deliveryId: 'dlr_ping_1',
		});
		expect(delivery.items).toBeUndefined();
		expect(delivery.credentialReads).toEqual([]);
		// What tells the service a move of this n8n from a second n8n with the same owners (a copy).
		expectAcknowledged(delivery, 'dlr_ping_1', {
			executed: false,
			reason: 'ping',
			url: node.webhookUrl(),
		});
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('a request without a delivery id acknowledges nothing (there is nothing to echo)', async () => {
		claims(true);
		const delivery = await wire.deliver(node, orderCreated(), {
			secret,
			deliveryId: null,
		});
		expect(delivery.items).toHaveLength(1);
		expect(delivery.responseHeaders).not.toHaveProperty('x-multichannel-ack');
		expect(JSON.parse(delivery.responseBody)).toEqual({ received: true, executed: true });
	});
});

describe('refused: never acknowledged', () => {
	it('a signature that does not match (401) and a signed body that is no event (400)', async () => {
		expectUnacknowledged(
			await wire.deliver(node, orderCreated(), { secret: testKey('whsec') }),
			401,
		);
		expectUnacknowledged(await wire.deliver(node, '{"not":"an event"}', { secret }), 400);
	});

	it('a claim the service cannot take (503 after its one retry)', async () => {
		answer(nock(SERVICE).post(CLAIMS), () => [503, { error: { code: 'unavailable' } }], 2);
		const delivery = await wire.deliver(node, orderCreated(), { secret });
		expectUnacknowledged(delivery, 503);
		expect(JSON.parse(delivery.responseBody)).toMatchObject({ error: { code: 'claim_failed' } });
	});

	it('a claim another attempt holds (claimed: false, final: false): 503, so that it comes again', async () => {
		claims(false, false);
		const delivery = await wire.deliver(node, orderCreated(), { secret });
		expectUnacknowledged(delivery, 503);
		expect(JSON.parse(delivery.responseBody)).toMatchObject({ error: { code: 'claim_held' } });
	});

	it('a claim refused with 409 attempt_closed or claim_replayed: 503, nothing run', async () => {
		for (const code of ['attempt_closed', 'claim_replayed']) {
			answer(nock(SERVICE).post(CLAIMS), () => [409, { error: { code, message: 'Closed' } }]);
			const delivery = await wire.deliver(node, orderCreated(), { secret });
			expectUnacknowledged(delivery, 503);
			expect(JSON.parse(delivery.responseBody)).toMatchObject({ error: { code: 'claim_failed' } });
		}
	});
});
