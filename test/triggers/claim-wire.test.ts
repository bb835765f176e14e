/**
 * The trigger's signed claim on the wire (nock): registered at a service that takes signed claims, a delivery
 * is claimed with `POST …/webhooks/{id}/signed-claims`, signed with the webhook's secret over its method, path and
 * exact body (`{eventId, deliveryId}`), with no Authorization header, and no credential read during the delivery. A
 * service that did not say `signedClaims` gets the claim with the API key instead.
 */
import nock from 'nock';

import { signedRequestPayload, verifySignature } from '../../src/client';
import { AUTOMATION_KEY } from '../support/client';
import { answer, eventBody, SERVICE, SURFACES, useWire, type Seen } from '../support/trigger-wire';

// nock patches Node's http for the whole worker: undone when this file ends (test/nodes/quiet.test.ts).
afterAll(() => nock.restore());
const wire = useWire();

/** An Automation Trigger activated at the nock'ed service, which answers the registration with `extra`. */
const activatedTrigger = (extra: object) =>
	wire.activated('automation', { webhookId: 'wh_wire', extra });

const deliver = (secret: string, node: Parameters<typeof wire.deliver>[0], eventId: string) =>
	wire.deliver(
		node,
		eventBody(
			'automation.order.created',
			{ id: 'aev_1', name: 'order.created', payload: {} },
			eventId,
		),
		{ secret, deliveryId: 'dlr_wire_1' },
	);

function recordClaims(path: string, claimed: boolean): Seen[] {
	return answer(nock(SERVICE).post(`${SURFACES.automation.path}/wh_wire/${path}`), (body) => [
		200,
		{ eventId: body.eventId, claimed, claimedAt: new Date().toISOString() },
	]);
}

it('claims with the webhook secret’s signature over the exact body, without the API key or a credential read', async () => {
	const { node, secret } = await activatedTrigger({ signedClaims: true });
	const seen = recordClaims('signed-claims', true);

	const delivery = await deliver(secret, node, 'evt_wire_1');

	expect(delivery.items).toHaveLength(1);
	expect(delivery.credentialReads).toEqual([]);
	expect(seen).toHaveLength(1);
	const [{ method, path, headers, body }] = seen;
	expect(body).toEqual({ eventId: 'evt_wire_1', deliveryId: 'dlr_wire_1' });
	expect(headers.authorization).toBeUndefined();
	expect(headers['content-type']).toBe('application/json');
	const signedOver = (payload: string | Buffer) =>
		verifySignature({
			payload,
			header: headers['x-multichannel-signature'] as string,
			secrets: secret,
		});
	// Method and path are signed with the body, so the signature is good for this endpoint only.
	expect(path).toBe(`${SURFACES.automation.path}/wh_wire/signed-claims`);
	expect(signedOver(signedRequestPayload(method, path, JSON.stringify(body)))).toMatchObject({
		valid: true,
	});
	expect(signedOver(JSON.stringify(body))).toMatchObject({ valid: false });
	expect(JSON.stringify(seen)).not.toContain(AUTOMATION_KEY);
});

it('a claim the service answers claimed: false is a duplicate: acknowledged, nothing runs', async () => {
	const { node, secret } = await activatedTrigger({ signedClaims: true });
	recordClaims('signed-claims', false);

	const delivery = await deliver(secret, node, 'evt_wire_2');

	expect(delivery.items).toBeUndefined();
	expect(JSON.parse(delivery.responseBody)).toMatchObject({ reason: 'duplicate' });
});

it('claims with the API key, reading the credential once, where the registration did not offer signed claims', async () => {
	const { node, secret } = await activatedTrigger({});
	const seen = recordClaims('claims', true);

	const delivery = await deliver(secret, node, 'evt_wire_3');

	expect(delivery.items).toHaveLength(1);
	expect(delivery.credentialReads).toEqual(['multichannelAutomationApi']);
	expect(seen[0].headers.authorization).toBe(`Bearer ${AUTOMATION_KEY}`);
	expect(seen[0].headers['x-multichannel-signature']).toBeUndefined();
});
