/**
 * The trigger's signed claim on the wire (nock): registered at a service that takes signed claims, a delivery
 * is claimed with `POST …/webhooks/{id}/signed-claims`, signed with the webhook's secret over the exact body
 * (`{eventId, deliveryId}`), with no Authorization header, and no credential read during the delivery. A
 * service that did not say `signedClaims` gets the claim with the API key instead.
 */
import nock from 'nock';

import { signPayload, verifySignature } from '../../src/client';
import { N8nEndpoint, TRIGGER_TYPES, TriggerUnderTest } from '../../dev/harness/triggers';
import { AUTOMATION_KEY, loopbackOrNock } from '../support/client';
import { raw } from '../support/sandbox';

// nock patches Node's http for the whole worker: undone when this file ends (test/nodes/quiet.test.ts).
afterAll(() => nock.restore());
loopbackOrNock();

const BASE_URL = 'http://claims.example.test';

let endpoint: N8nEndpoint;
beforeAll(async () => {
	endpoint = await new N8nEndpoint().start();
});
afterAll(async () => {
	await endpoint.close();
});

interface Seen {
	headers: Record<string, unknown>;
	body: string;
}

/** An Automation Trigger activated at the nock'ed service, which answers the registration with `extra`. */
async function activatedTrigger(
	extra: object,
): Promise<{ node: TriggerUnderTest; secret: string }> {
	let secret = '';
	nock(BASE_URL)
		.post('/api/v1/automation/webhooks')
		.reply(201, (_uri, body) => {
			const sent = body as { url: string; events: string[]; secret: string };
			secret = sent.secret;
			return { id: 'wh_wire', url: sent.url, events: sent.events, secret: sent.secret, ...extra };
		});
	const node = new TriggerUnderTest(endpoint, {
		type: TRIGGER_TYPES.automation,
		parameters: {},
		credentials: { multichannelAutomationApi: { baseUrl: BASE_URL, apiKey: AUTOMATION_KEY } },
	});
	await node.activate();
	return { node, secret };
}

async function deliver(node: TriggerUnderTest, secret: string, eventId: string) {
	const body = JSON.stringify({
		id: eventId,
		type: 'automation.order.created',
		createdAt: new Date().toISOString(),
		data: { id: 'aev_1', name: 'order.created', payload: {} },
	});
	const before = endpoint.of(node).length;
	await raw(endpoint.url, 'POST', new URL(node.webhookUrl()).pathname, {
		body,
		headers: {
			'x-multichannel-signature': signPayload(secret, body),
			'x-multichannel-delivery-id': 'dlr_wire_1',
		},
	});
	return endpoint.of(node)[before];
}

function recordClaims(path: string, claimed: boolean): Seen[] {
	const seen: Seen[] = [];
	nock(BASE_URL)
		.post(path)
		.reply(function (_uri, body) {
			seen.push({ headers: this.req.headers, body: JSON.stringify(body) });
			const { eventId } = body as { eventId: string };
			return [200, { eventId, claimed, claimedAt: new Date().toISOString() }];
		});
	return seen;
}

it('claims with the webhook secret’s signature over the exact body, without the API key or a credential read', async () => {
	const { node, secret } = await activatedTrigger({ signedClaims: true });
	const seen = recordClaims('/api/v1/automation/webhooks/wh_wire/signed-claims', true);

	const delivery = await deliver(node, secret, 'evt_wire_1');

	expect(delivery.items).toHaveLength(1);
	expect(delivery.credentialReads).toEqual([]);
	expect(seen).toHaveLength(1);
	const [{ headers, body }] = seen;
	expect(JSON.parse(body)).toEqual({ eventId: 'evt_wire_1', deliveryId: 'dlr_wire_1' });
	expect(headers.authorization).toBeUndefined();
	expect(headers['content-type']).toBe('application/json');
	expect(
		verifySignature({
			payload: body,
			header: headers['x-multichannel-signature'] as string,
			secrets: secret,
		}),
	).toMatchObject({ valid: true });
	expect(JSON.stringify(seen)).not.toContain(AUTOMATION_KEY);
});

it('a claim the service answers claimed: false is a duplicate: acknowledged, nothing runs', async () => {
	const { node, secret } = await activatedTrigger({ signedClaims: true });
	recordClaims('/api/v1/automation/webhooks/wh_wire/signed-claims', false);

	const delivery = await deliver(node, secret, 'evt_wire_2');

	expect(delivery.items).toBeUndefined();
	expect(JSON.parse(delivery.responseBody)).toMatchObject({ reason: 'duplicate' });
});

it('claims with the API key, reading the credential once, where the registration did not offer signed claims', async () => {
	const { node, secret } = await activatedTrigger({});
	const seen = recordClaims('/api/v1/automation/webhooks/wh_wire/claims', true);

	const delivery = await deliver(node, secret, 'evt_wire_3');

	expect(delivery.items).toHaveLength(1);
	expect(delivery.credentialReads).toEqual(['multichannelAutomationApi']);
	expect(seen[0].headers.authorization).toBe(`Bearer ${AUTOMATION_KEY}`);
	expect(seen[0].headers['x-multichannel-signature']).toBeUndefined();
});
