/**
 * The gathering registration on the wire (nock): the Multichannel Trigger with "Gather Messages From the Same
 * Chat" registers `POST /api/v1/webhooks` with `gather: { quietSeconds, maxWaitSeconds }` beside its events and
 * secret; without the option the body has no `gather`; a webhook whose gathering was changed at the service is
 * registered again, in place (nothing deleted), on the next check. A delivery reads the node's Options once, and
 * the gathering only to set the webhook back. With Download Media a burst's files are downloaded a few at a time.
 */
import { createHash } from 'node:crypto';

import nock from 'nock';
import type { INodeParameters } from 'n8n-workflow';

import { answer, eventBody, registrations, SERVICE, useWire } from '../support/trigger-wire';
import { sleep } from '../support/waiting';

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

it("reads the node's Options once per delivery, and the gathering from them only to set the webhook back", async () => {
	const parameters = {
		events: ['message.received'],
		instanceIds: ['inst_1'],
		options: {
			gather: { settings: { quietSeconds: 3, maxWaitSeconds: 30 } },
			downloadMedia: true,
			onlyData: true,
			taps: 'all',
		},
	};
	const { node, secret } = await wire.activated('messaging', { webhookId: 'wh_once', parameters });
	const claims = answer(nock(SERVICE).post('/api/v1/webhooks/wh_once/signed-claims'), (body) => [
		200,
		{ eventId: body.eventId, claimed: true, claimedAt: new Date().toISOString() },
	]);
	const patched = answer(nock(SERVICE).patch('/api/v1/webhooks/wh_once'), (body) => [
		200,
		{ id: 'wh_once', ...body },
	]);
	const message = (instanceId: string) =>
		eventBody('message.received', { id: 'msg_1', instanceId, text: 'hi' });

	const taken = await wire.deliver(node, message('inst_1'), { secret });
	const leftOut = await wire.deliver(node, message('inst_other'), { secret });

	expect(taken.items?.[0].json).toMatchObject({ id: 'msg_1', text: 'hi' });
	expect(claims).toHaveLength(1);
	expect(patched.map(({ body }) => (body as { gather?: unknown }).gather)).toEqual([
		{ quietSeconds: 3, maxWaitSeconds: 30 },
	]);
	for (const delivery of [taken, leftOut]) {
		expect(delivery.parameterReads.filter((name) => name.startsWith('options'))).toEqual([
			'options',
		]);
	}
});

it('with Download Media downloads a burst’s files a few at a time, not all at once, into data, data_1 … in order', async () => {
	const { node, secret } = await wire.activated('messaging', {
		webhookId: 'wh_files',
		parameters: { events: ['message.received'], options: { downloadMedia: true, onlyData: true } },
	});
	answer(nock(SERVICE).post('/api/v1/webhooks/wh_files/signed-claims'), (body) => [
		200,
		{ eventId: body.eventId, claimed: true, claimedAt: new Date().toISOString() },
	]);
	const files = Array.from({ length: 12 }, (_, index) => Buffer.from(`file number ${index}`));
	let downloading = 0;
	let most = 0;
	nock(SERVICE)
		.get(/^\/api\/v1\/signed-media\/tok_\d+$/)
		.times(files.length)
		.reply(async (uri) => {
			most = Math.max(most, ++downloading);
			await sleep(100);
			downloading--;
			const bytes = files[Number(uri.split('_').pop())];
			return [200, bytes, { 'Content-Type': 'application/pdf' }];
		});
	const messages = files.map((bytes, index) => ({
		id: `msg_${index}`,
		direction: 'inbound',
		instanceId: 'inst_1',
		chatId: '+14155550191',
		from: '+14155550191',
		media: {
			id: `med_${index}`,
			mimeType: 'application/pdf',
			size: bytes.length,
			sha256: createHash('sha256').update(bytes).digest('hex'),
			downloadUrl: `${SERVICE}/api/v1/signed-media/tok_${index}`,
		},
	}));
	const at = new Date().toISOString();
	const delivery = await wire.deliver(
		node,
		eventBody('message.received', {
			...{ gathered: true, instanceId: 'inst_1', chatId: '+14155550191', from: '+14155550191' },
			...{ count: messages.length, messageIds: messages.map((m) => m.id), messages },
			...{ firstAt: at, lastAt: at },
		}),
		{ secret },
	);

	expect(most).toBeGreaterThan(1);
	expect(most).toBeLessThanOrEqual(4);
	const [item] = delivery.items ?? [];
	const fields = files.map((_, index) => (index === 0 ? 'data' : `data_${index}`));
	expect((item.json.messages as Array<{ binaryField?: string }>).map((m) => m.binaryField)).toEqual(
		fields,
	);
	for (const [index, field] of fields.entries()) {
		expect(Buffer.from(item.binary?.[field]?.data ?? '', 'base64')).toEqual(files[index]);
	}
});
