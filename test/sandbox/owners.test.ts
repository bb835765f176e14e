/**
 * Owners and rotation (SERVICE.md, 2026-11-25 "lifetime"), over real HTTP: a registration naming an owner that has
 * a webhook replaces it in place (same id, new URL and secret, pending deliveries kept and signed with the new
 * secret), so that a receiver that moved leaves no second webhook; the old secret still verifies signed claims for
 * the grace period and no longer after it; a secret rotated on its own likewise; a webhook its owner deleted is kept
 * for the grace period, its events held, and taken back by the owner's next registration; without an owner,
 * everything is as before.
 */
import { claimSignature, raw, sandboxWithReceiver, sleep, waitFor } from '../support/sandbox';

const GRACE_MS = 60_000;
let nowMs = Date.now();
const suite = sandboxWithReceiver({
	now: () => nowMs,
	rateLimit: false,
	webhooks: { graceMs: GRACE_MS, upkeepMs: 20, retryBaseMs: 20, maxRetryDelayMs: 50 },
});

const at = (path: string) =>
	suite.receiver.received.filter((delivery) => delivery.path === `/${path}`);

const register = (path: string, owner?: string) =>
	suite.clients.automation.webhooks.create({
		body: {
			url: `${suite.receiver.url}/${path}`,
			events: ['*'],
			...(owner ? { owner } : {}),
		},
	});

const publish = (name: string) =>
	suite.clients.automation.events.publish({ body: { name, payload: {} } });

const listed = async () => (await suite.clients.automation.webhooks.list({})).data;

/** A signed claim of `eventId` at the webhook, signed with `secret`, at the sandbox's clock. */
function signedClaim(webhookId: string, eventId: string, secret: string) {
	const body = JSON.stringify({ eventId });
	const path = `/api/v1/automation/webhooks/${webhookId}/signed-claims`;
	return raw(suite.sandbox.baseUrl, 'POST', path, {
		body,
		headers: {
			'x-multichannel-signature': claimSignature(secret, path, body, Math.floor(nowMs / 1000)),
		},
	});
}

it('replaces the webhook of an owner in place: same id, new URL and secret, its pending delivery sent there', async () => {
	suite.receiver.respond = (delivery) => (delivery.path === '/old-home' ? 503 : 200);
	const first = await register('old-home', 'owner-a');
	expect(first).toMatchObject({ owner: 'owner-a' });
	expect(first.replaced).toBe(false);
	suite.receiver.secrets.push(first.secret);
	await publish('moved.pending');
	await waitFor(() => at('old-home').length > 0, 5000, 'the first attempt at the old URL');

	const second = await register('new-home', 'owner-a');
	expect(second).toMatchObject({
		id: first.id,
		replaced: true,
		url: `${suite.receiver.url}/new-home`,
	});
	expect(second.secret).not.toBe(first.secret);
	expect((await listed()).filter((hook) => hook.id === first.id)).toHaveLength(1);

	// The receiver now trusts only the new secret: the pending delivery arrives at the new URL, signed with it.
	suite.receiver.secrets.splice(0, suite.receiver.secrets.length, second.secret);
	// (An attempt may arrive before the receiver learnt the new secret: it is refused, and comes again.)
	await suite.receiver.waitForEvent(
		'automation.moved.pending',
		(delivery) =>
			delivery.path === '/new-home' && delivery.signature.valid && delivery.status === 200,
	);

	// Another owner, or none, gets a webhook of its own.
	const other = await register('new-home', 'owner-b');
	const none = await register('new-home');
	expect(new Set([first.id, other.id, none.id]).size).toBe(3);
});

it('takes claims signed with the old secret for the grace period only', async () => {
	suite.receiver.respond = () => 200;
	const first = await register('grace', 'owner-grace');
	await publish('grace.event');
	const eventId = (
		await waitFor(() =>
			at('grace').find((delivery) => delivery.event.type === 'automation.grace.event'),
		)
	).event.id;
	const second = await register('grace', 'owner-grace');

	nowMs += 1000;
	expect(await signedClaim(first.id, eventId, first.secret)).toMatchObject({
		status: 200,
		body: { claimed: true },
	});
	nowMs += GRACE_MS;
	expect((await signedClaim(first.id, eventId, first.secret)).status).toBe(401);
	expect(await signedClaim(first.id, eventId, second.secret)).toMatchObject({
		status: 200,
		body: { claimed: false },
	});
});

it('rotates a secret on its own: deliveries signed with the new one, the old one verifies claims during the grace', async () => {
	suite.receiver.respond = () => 200;
	const hook = await register('rotate');
	const rotated = await suite.clients.automation.webhooks.rotateSecret({
		webhookId: hook.id,
		body: {},
	});
	expect(rotated).toMatchObject({ id: hook.id });
	expect(rotated.secret).not.toBe(hook.secret);
	suite.receiver.secrets.splice(0, suite.receiver.secrets.length, rotated.secret);
	await publish('after.rotation');
	const delivery = await suite.receiver.waitForEvent(
		'automation.after.rotation',
		(received) => received.path === '/rotate',
	);
	expect(delivery.signature.valid).toBe(true);
	nowMs += 1000;
	expect((await signedClaim(hook.id, delivery.event.id, hook.secret)).status).toBe(200);

	const chosen = 'a-secret-of-my-own-0123456789';
	await expect(
		suite.clients.automation.webhooks.rotateSecret({
			webhookId: hook.id,
			body: { secret: chosen },
		}),
	).resolves.toMatchObject({ secret: chosen });
});

it("keeps an owner's deleted webhook for the grace period, its events held, and gives it back to the owner", async () => {
	suite.receiver.respond = () => 200;
	const hook = await register('republish', 'owner-republish');
	suite.receiver.secrets.push(hook.secret);
	await suite.clients.automation.webhooks.delete({ webhookId: hook.id });
	// Gone for the API...
	await expect(suite.clients.automation.webhooks.get({ webhookId: hook.id })).rejects.toMatchObject(
		{
			status: 404,
		},
	);
	expect((await listed()).map((listedHook) => listedHook.id)).not.toContain(hook.id);
	// ...but what happens meanwhile is kept for it.
	await publish('between.delete.and.create');
	await sleep(100);
	expect(at('republish')).toHaveLength(0);

	const again = await register('republish', 'owner-republish');
	expect(again).toMatchObject({ id: hook.id, replaced: true, status: 'active' });
	suite.receiver.secrets.push(again.secret);
	await suite.receiver.waitForEvent(
		'automation.between.delete.and.create',
		(delivery) => delivery.path === '/republish',
	);

	// Deleted and not taken back within the grace period: gone for good, with what it kept.
	await suite.clients.automation.webhooks.delete({ webhookId: hook.id });
	await publish('after.final.delete');
	nowMs += GRACE_MS;
	await waitFor(() => !suite.sandbox.store.get('webhooks', hook.id), 5000, 'the webhook to go');
	expect(
		suite.sandbox.store.all('deliveries', (delivery) => delivery.webhookId === hook.id),
	).toEqual([]);
	const fresh = await register('republish', 'owner-republish');
	expect(fresh.id).not.toBe(hook.id);
	expect(fresh.replaced).toBe(false);
});

it('deletes a webhook without an owner at once, as before', async () => {
	const hook = await register('no-owner');
	await suite.clients.automation.webhooks.delete({ webhookId: hook.id });
	expect(suite.sandbox.store.get('webhooks', hook.id)).toBeUndefined();
});
