/**
 * The webhook lifecycle on the wire (nock): a registration names its owner — an opaque key, the same for one
 * trigger's production webhook across activations and URLs, another for its test webhook and for any other
 * trigger — and asks for acknowledgements. Registering again never deletes first: the service replaces the
 * owner's webhook in place (same id, pending deliveries kept); only a registration this mode made before under
 * another webhook id (an older version's, at this URL or an old one) is deleted, after the new one is made. A
 * webhook changed at the service is registered again in place, not deleted. The test webhook and the
 * production webhook never touch each other's registrations. The service's answers are mocked here, so the service
 * replacing in place is proven against the sandbox in url-moves.test.ts (d).
 */
import nock from 'nock';

import {
	answer,
	registrations,
	SERVICE,
	SURFACES,
	useWire,
	type Seen,
} from '../support/trigger-wire';
import { testKey } from '../support/client';
import type { TriggerUnderTest } from '../../dev/harness/triggers';

// nock patches Node's http for the whole worker: undone when this file ends (test/nodes/quiet.test.ts).
afterAll(() => nock.restore());
const wire = useWire();
const PATH = SURFACES.automation.path;

/** Every DELETE of a webhook the service receives from now on, answered `status`. */
function deletions(status = 204): Seen[] {
	return answer(nock(SERVICE).delete(/\/automation\/webhooks\/.+/), () => [status], 10);
}

interface StoredRegistration {
	webhookId: string;
	secret: string;
	mode?: string;
}
const webhooksOf = (node: TriggerUnderTest, test = false) =>
	(node.nodeStaticData(test).webhooks ?? {}) as Record<string, StoredRegistration>;

it('registers with an owner (n8n-<sha-256>) and requireAcknowledgement: true, beside the URL, events and secret', async () => {
	const sent = registrations('automation', 'wh_owner');
	const node = wire.trigger('automation');
	await node.activate();

	const [{ body }] = sent as Array<{ body: Record<string, unknown> }>;
	expect(Object.keys(body).sort()).toEqual([
		'description',
		'events',
		'owner',
		'requireAcknowledgement',
		'secret',
		'url',
	]);
	expect(body.requireAcknowledgement).toBe(true);
	expect(body.owner).toMatch(/^n8n-[0-9a-f]{64}$/);
	// Opaque: neither the workflow nor the node can be read from it.
	expect(body.owner).not.toContain(String(node.node.id));
	expect(webhooksOf(node)[node.webhookUrl()]).toMatchObject({
		webhookId: 'wh_owner',
		mode: 'production',
	});
});

it('keeps the owner of a trigger across registrations, and gives its test webhook and other triggers others', async () => {
	const owners = registrations('automation', 'wh_same', { replaced: true }, 3);
	const node = wire.trigger('automation');
	await node.activate();
	await node.hook('create');
	const other = wire.trigger('automation');
	await other.activate();
	const [first, again, another] = owners.map(({ body }) => (body as { owner: string }).owner);
	expect(again).toBe(first);
	expect(another).not.toBe(first);

	const test = registrations('automation', 'wh_test');
	await node.listenForTest();
	expect((test[0].body as { owner: string }).owner).not.toBe(first);
});

it('registers again without deleting first: the service replaced the webhook in place, nothing is deleted', async () => {
	const deleted = deletions();
	const { node } = await wire.activated('automation', { webhookId: 'wh_kept' });
	const again = registrations('automation', 'wh_kept', { replaced: true });

	await node.hook('create');

	expect(again).toHaveLength(1);
	expect(deleted).toEqual([]);
	expect(Object.keys(webhooksOf(node))).toEqual([node.webhookUrl()]);
	expect(webhooksOf(node)[node.webhookUrl()].secret).toBe(
		(again[0].body as { secret: string }).secret,
	);
});

it('deletes, after registering, what an older version registered at this URL under another id (gone already is fine)', async () => {
	const node = wire.trigger('automation');
	wire.store(node, {
		[node.webhookUrl()]: { webhookId: 'wh_legacy', secret: testKey('whsec') },
	});
	const order: string[] = [];
	nock(SERVICE)
		.post(PATH)
		.reply(201, (_uri, body) => {
			order.push('create');
			return { id: 'wh_new', secret: (body as { secret: string }).secret };
		});
	nock(SERVICE)
		.delete(`${PATH}/wh_legacy`)
		.reply(404, () => {
			order.push('delete wh_legacy');
			return { error: { code: 'not_found', message: 'No such webhook' } };
		});

	await node.hook('create');

	expect(order).toEqual(['create', 'delete wh_legacy']);
	expect(webhooksOf(node)).toEqual({
		[node.webhookUrl()]: expect.objectContaining({ webhookId: 'wh_new', mode: 'production' }),
	});
});

it('after n8n moved: the registration kept under the old URL is dropped, and deleted only when its id differs', async () => {
	const node = wire.trigger('automation');
	const oldUrl = 'http://old-n8n.example/webhook/abc/webhook';
	const legacyUrl = 'http://older-n8n.example/webhook/abc/webhook';
	wire.store(node, {
		[oldUrl]: { webhookId: 'wh_moved', secret: testKey('whsec'), mode: 'production' },
		[legacyUrl]: { webhookId: 'wh_orphan', secret: testKey('whsec') },
	});
	const deleted = deletions();
	// The mode's registration, kept under the old URL, is looked up: its webhook still delivers there.
	const looked = nock(SERVICE)
		.get(`${PATH}/wh_moved`)
		.reply(200, { id: 'wh_moved', url: oldUrl, events: ['automation.*'], status: 'active' });
	const sent = registrations('automation', 'wh_moved', { replaced: true });

	// Activation at the new URL: the webhook is elsewhere, so it registers (the service replaces in place).
	await node.activate();

	expect(looked.isDone()).toBe(true);
	expect((sent[0].body as { url: string }).url).toBe(node.webhookUrl());
	expect(deleted.map(({ method, path }) => `${method} ${path}`)).toEqual([
		`DELETE ${PATH}/wh_orphan`,
	]);
	expect(Object.keys(webhooksOf(node))).toEqual([node.webhookUrl()]);
	expect(webhooksOf(node)[node.webhookUrl()]).toMatchObject({
		webhookId: 'wh_moved',
		// A delivery never moves it back to either (repairs.ts).
		formerUrls: [oldUrl, legacyUrl],
	});
});

it('a webhook changed at the service is registered again in place: checkExists answers false and deletes nothing', async () => {
	const deleted = deletions();
	const { node } = await wire.activated('automation', { webhookId: 'wh_changed' });
	const looked = nock(SERVICE)
		.get(`${PATH}/wh_changed`)
		.reply(200, {
			id: 'wh_changed',
			url: node.webhookUrl(),
			events: ['automation.other'],
			status: 'active',
		});
	const again = registrations('automation', 'wh_changed', { replaced: true });

	await node.activate('init');

	expect(looked.isDone()).toBe(true);
	expect(again).toHaveLength(1);
	expect(deleted).toEqual([]);
	expect(webhooksOf(node)[node.webhookUrl()].webhookId).toBe('wh_changed');
});

it('listening for a test event and stopping never touch the production registration', async () => {
	const deleted = deletions();
	const { node } = await wire.activated('automation', { webhookId: 'wh_production' });
	registrations('automation', 'wh_editor');

	await node.listenForTest();
	expect(deleted).toEqual([]);
	expect(webhooksOf(node, true)[node.webhookUrl(true)]).toMatchObject({
		webhookId: 'wh_editor',
		mode: 'test',
	});
	expect(webhooksOf(node, true)[node.webhookUrl()].webhookId).toBe('wh_production');

	await node.stopListening();
	expect(deleted.map(({ path }) => path)).toEqual([`${PATH}/wh_editor`]);
	expect(Object.keys(webhooksOf(node))).toEqual([node.webhookUrl()]);
});
