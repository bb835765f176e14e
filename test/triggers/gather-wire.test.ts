/**
 * The gathering registration on the wire (nock): the Multichannel Trigger with "Gather Messages From the Same
 * Chat" registers `POST /api/v1/webhooks` with `gather: { quietSeconds, maxWaitSeconds }` beside its events and
 * secret; without the option the body has no `gather`; a webhook whose gathering was changed at the service is
 * registered again, in place (nothing deleted), on the next check.
 */
import nock from 'nock';
import type { INodeParameters } from 'n8n-workflow';

import { registrations, SERVICE, useWire } from '../support/trigger-wire';

// nock patches Node's http for the whole worker: undone when this file ends (test/nodes/quiet.test.ts).
afterAll(() => nock.restore());
const wire = useWire();

/** Activates a Multichannel Trigger with these options; resolves with the registration's body as sent. */
async function registered(options: INodeParameters) {
	const sent = registrations('messaging', 'wh_gather', { signedClaims: true });
	const node = wire.trigger('messaging', { events: ['message.received'], options });
	await node.activate();
	return { node, sent: sent[0].body as Record<string, unknown> };
}

it('registers with gather: { quietSeconds, maxWaitSeconds }, and without it when the option is not added', async () => {
	const { sent } = await registered({
		gather: { settings: { quietSeconds: 3, maxWaitSeconds: 45 } },
	});
	expect(Object.keys(sent).sort()).toEqual([
		'description',
		'events',
		'gather',
		'owner',
		'requireAcknowledgement',
		'secret',
		'url',
	]);
	expect(sent.gather).toEqual({ quietSeconds: 3, maxWaitSeconds: 45 });
	expect(sent.events).toEqual(['message.received']);

	const plain = await registered({});
	expect(plain.sent).not.toHaveProperty('gather');
});

it('registers again in place a webhook whose gathering differs at the service', async () => {
	const options = { gather: { settings: { quietSeconds: 5, maxWaitSeconds: 60 } } };
	const { node, sent } = await registered(options);
	const remote = { id: 'wh_gather', url: sent.url, events: sent.events, status: 'active' };

	nock(SERVICE)
		.get('/api/v1/webhooks/wh_gather')
		.reply(200, { ...remote, gather: { quietSeconds: 5, maxWaitSeconds: 60 } });
	expect(await node.hook('checkExists')).toBe(true);

	nock(SERVICE)
		.get('/api/v1/webhooks/wh_gather')
		.reply(200, { ...remote, gather: null });
	const removed = nock(SERVICE).delete('/api/v1/webhooks/wh_gather').reply(204);
	expect(await node.hook('checkExists')).toBe(false);
	expect(removed.isDone()).toBe(false);
});
