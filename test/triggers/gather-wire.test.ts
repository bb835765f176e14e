/**
 * The gathering registration on the wire (nock): the Multichannel Trigger with "Gather Messages From the Same
 * Chat" registers `POST /api/v1/webhooks` with `gather: { quietSeconds, maxWaitSeconds }` beside its events and
 * secret; without the option the body has no `gather`; a webhook whose gathering was changed at the service is
 * replaced on the next check.
 */
import nock from 'nock';
import type { INodeParameters } from 'n8n-workflow';

import { N8nEndpoint, TRIGGER_TYPES, TriggerUnderTest } from '../../dev/harness/triggers';
import { KEY, loopbackOrNock } from '../support/client';

// nock patches Node's http for the whole worker: undone when this file ends (test/nodes/quiet.test.ts).
afterAll(() => nock.restore());
loopbackOrNock();

const BASE_URL = 'http://gather.example.test';

let endpoint: N8nEndpoint;
beforeAll(async () => {
	endpoint = await new N8nEndpoint().start();
});
afterAll(async () => await endpoint.close());

/** Activates a Multichannel Trigger with these options; resolves with the registration's body as sent. */
async function registered(options: INodeParameters) {
	let sent: Record<string, unknown> = {};
	nock(BASE_URL)
		.post('/api/v1/webhooks')
		.reply(201, (_uri, body) => {
			sent = body as Record<string, unknown>;
			return { id: 'wh_gather', ...sent, secret: sent.secret, signedClaims: true };
		});
	const node = new TriggerUnderTest(endpoint, {
		type: TRIGGER_TYPES.messaging,
		parameters: { events: ['message.received'], options },
		credentials: { multichannelApi: { baseUrl: BASE_URL, apiKey: KEY } },
	});
	await node.activate();
	return { node, sent };
}

it('registers with gather: { quietSeconds, maxWaitSeconds }, and without it when the option is not added', async () => {
	const { sent } = await registered({
		gather: { settings: { quietSeconds: 3, maxWaitSeconds: 45 } },
	});
	expect(Object.keys(sent).sort()).toEqual(['description', 'events', 'gather', 'secret', 'url']);
	expect(sent.gather).toEqual({ quietSeconds: 3, maxWaitSeconds: 45 });
	expect(sent.events).toEqual(['message.received']);

	const plain = await registered({});
	expect(plain.sent).not.toHaveProperty('gather');
});

it('replaces a webhook whose gathering differs at the service', async () => {
	const options = { gather: { settings: { quietSeconds: 5, maxWaitSeconds: 60 } } };
	const { node, sent } = await registered(options);
	const remote = { id: 'wh_gather', url: sent.url, events: sent.events, status: 'active' };

	nock(BASE_URL)
		.get('/api/v1/webhooks/wh_gather')
		.reply(200, { ...remote, gather: { quietSeconds: 5, maxWaitSeconds: 60 } });
	expect(await node.hook('checkExists')).toBe(true);

	nock(BASE_URL)
		.get('/api/v1/webhooks/wh_gather')
		.reply(200, { ...remote, gather: null });
	const removed = nock(BASE_URL).delete('/api/v1/webhooks/wh_gather').reply(204);
	expect(await node.hook('checkExists')).toBe(false);
	expect(removed.isDone()).toBe(true);
});
