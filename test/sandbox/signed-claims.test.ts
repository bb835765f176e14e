/**
 * Claims signed with the webhook's secret instead of an API key (`claimEventSigned`), over real HTTP: a claim
 * signed right is taken like one made with the key; a forged one (wrong secret, another webhook's secret, a
 * changed body, a stale timestamp, no signature) is a 401; and a replayed one (the very request again, or the
 * same signature written another way) is a 409 that changes nothing, even after the claim it copies was
 * released, so a copied claim can never take an event away from its receiver.
 */
import { signedRequestPayload, signPayload } from '../../src/client/signature';
import { claimSignature, raw, sandboxWithReceiver, waitFor } from '../support/sandbox';

let nowMs = Date.now();
const suite = sandboxWithReceiver({ now: () => nowMs, rateLimit: false });

async function automationWebhook() {
	const created = await suite.clients.automation.webhooks.create({
		body: { url: `${suite.receiver.url}/signed`, events: ['*'] },
	});
	suite.receiver.secrets.push(created.secret);
	return created;
}

/** Publishes an automation event, delivered to every automation webhook; its event id. */
async function publishedEvent(): Promise<string> {
	await suite.clients.automation.events.publish({ body: { name: 'order.paid', payload: {} } });
	return (suite.sandbox.events.at(-1) as { id: string }).id;
}

const signedPath = (webhookId: string) => `/api/v1/automation/webhooks/${webhookId}/signed-claims`;

/** A signed claim as sent on the wire: the exact body and its signature header, no API key. */
function post(webhookId: string, body: string, signature?: string) {
	return raw(suite.sandbox.baseUrl, 'POST', signedPath(webhookId), {
		body,
		headers: signature ? { 'x-multichannel-signature': signature } : {},
	});
}

const seconds = () => Math.floor(nowMs / 1000);

/** A claim's signature for a webhook's signed-claims path, as the client signs it. */
const sign = (webhookId: string, secret: string, body: string, at: number) =>
	claimSignature(secret, signedPath(webhookId), body, at);

it('registers webhooks that take signed claims, and takes a signed claim without an API key', async () => {
	const hook = await automationWebhook();
	expect(hook.signedClaims).toBe(true);
	const eventId = await publishedEvent();
	const body = JSON.stringify({ eventId });

	const first = await post(hook.id, body, sign(hook.id, hook.secret, body, seconds()));
	expect(first).toMatchObject({ status: 200, body: { eventId, claimed: true } });
	// The same event claimed again (a new signature) loses, as with the key.
	nowMs += 1000;
	const second = await post(hook.id, body, sign(hook.id, hook.secret, body, seconds()));
	expect(second).toMatchObject({ status: 200, body: { eventId, claimed: false } });
	expect(suite.sandbox.store.all('claims', (claim) => claim.webhookId === hook.id)).toHaveLength(1);
});

it('refuses forged claims with 401 and takes nothing', async () => {
	const [hook, other] = [await automationWebhook(), await automationWebhook()];
	const eventId = await publishedEvent();
	const body = JSON.stringify({ eventId });
	const forged = [
		post(hook.id, body),
		post(hook.id, body, sign(hook.id, 'not-the-secret-0123456789', body, seconds())),
		post(hook.id, body, sign(hook.id, other.secret, body, seconds())),
		post(
			hook.id,
			body,
			sign(hook.id, hook.secret, JSON.stringify({ eventId: 'evt_other' }), seconds()),
		),
		post(hook.id, body, sign(hook.id, hook.secret, body, seconds() - 301)),
		post(hook.id, body, 't=abc,v1=00'),
		post('wh_0123456789abcdef', body, sign('wh_0123456789abcdef', hook.secret, body, seconds())),
	];
	for (const answer of await Promise.all(forged)) {
		expect(answer).toMatchObject({ status: 401, body: { error: { code: 'invalid_signature' } } });
	}
	expect(suite.sandbox.store.all('claims', (claim) => claim.webhookId === hook.id)).toEqual([]);
	// A timestamp 300 s away is still within the tolerance.
	const edge = await post(hook.id, body, sign(hook.id, hook.secret, body, seconds() - 300));
	expect(edge).toMatchObject({ status: 200, body: { claimed: true } });
});

it('signs method and path too: a signature over the body alone, or for another method or path, is a 401', async () => {
	const hook = await automationWebhook();
	const body = JSON.stringify({ eventId: await publishedEvent() });
	const at = seconds();
	const forged = [
		// The body alone, as a delivery is signed.
		signPayload(hook.secret, body, at),
		signPayload(hook.secret, signedRequestPayload('PUT', signedPath(hook.id), body), at),
		claimSignature(hook.secret, `/api/v1/webhooks/${hook.id}/signed-claims`, body, at),
		claimSignature(hook.secret, `/api/v1/automation/webhooks/${hook.id}/claims`, body, at),
	];
	for (const signature of forged) {
		expect(await post(hook.id, body, signature)).toMatchObject({
			status: 401,
			body: { error: { code: 'invalid_signature' } },
		});
	}
	expect(suite.sandbox.store.all('claims', (claim) => claim.webhookId === hook.id)).toEqual([]);
	const right = await post(hook.id, body, sign(hook.id, hook.secret, body, at));
	expect(right).toMatchObject({ status: 200, body: { claimed: true } });
});

it('refuses a replayed claim with 409, even after the claim it copies was released', async () => {
	const hook = await automationWebhook();
	const eventId = await publishedEvent();
	const body = JSON.stringify({ eventId });
	const signature = sign(hook.id, hook.secret, body, seconds());
	expect((await post(hook.id, body, signature)).body).toMatchObject({ claimed: true });

	// The very request again, and the same signature written another way.
	const spaced = signature.replace(',', ', ') + `,v1=${'0'.repeat(64)}`;
	for (const replay of [await post(hook.id, body, signature), await post(hook.id, body, spaced)]) {
		expect(replay).toMatchObject({ status: 409, body: { error: { code: 'claim_replayed' } } });
	}

	// The receiver's answer released the claim (as an error status to the delivery it named does): a copy
	// of the old request still takes nothing, and the receiver's own next claim wins.
	suite.sandbox.store.remove('claims', `${hook.id}:${eventId}`);
	expect(await post(hook.id, body, signature)).toMatchObject({ status: 409 });
	expect(suite.sandbox.store.all('claims', (claim) => claim.webhookId === hook.id)).toEqual([]);
	nowMs += 1000;
	const fresh = await post(hook.id, body, sign(hook.id, hook.secret, body, seconds()));
	expect(fresh).toMatchObject({ status: 200, body: { claimed: true } });
});

it('two copies of one signed claim sent at once: one is taken, the other refused', async () => {
	const hook = await automationWebhook();
	const body = JSON.stringify({ eventId: await publishedEvent() });
	const signature = sign(hook.id, hook.secret, body, seconds());
	const answers = await Promise.all([
		post(hook.id, body, signature),
		post(hook.id, body, signature),
	]);
	expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
});

it('refuses a signed claim of an event never delivered to the webhook (404), and with the key kind of another surface', async () => {
	const hook = await automationWebhook();
	const body = JSON.stringify({ eventId: 'evt_0123456789abcdef' });
	const unknown = await post(hook.id, body, sign(hook.id, hook.secret, body, seconds()));
	expect(unknown).toMatchObject({ status: 404, body: { error: { code: 'unknown_event' } } });
	// The messaging surface's path for an automation webhook: as unknown as a made-up webhook.
	const elsewhere = await raw(
		suite.sandbox.baseUrl,
		'POST',
		`/api/v1/webhooks/${hook.id}/signed-claims`,
		{
			body,
			headers: {
				'x-multichannel-signature': claimSignature(
					hook.secret,
					`/api/v1/webhooks/${hook.id}/signed-claims`,
					body,
					seconds(),
				),
			},
		},
	);
	expect(elsewhere.status).toBe(401);
});

it('the typed client signs the claim itself with the secret it is given', async () => {
	const hook = await automationWebhook();
	const eventId = await publishedEvent();
	await waitFor(
		() => suite.receiver.received.find((delivery) => delivery.event.id === eventId),
		5000,
		'the delivery',
	);
	// Each delivery request names its own delivery id, so two deliveries' claims are two requests. The first
	// names none (a claim final at once); the second an attempt long answered: the event is taken already.
	const claim = (deliveryId: string | undefined, signingSecret: string) =>
		suite.clients.automation.webhooks.claimEventSigned(
			{ webhookId: hook.id, body: { eventId, ...(deliveryId ? { deliveryId } : {}) } },
			{ signingSecret },
		);
	expect(await claim(undefined, hook.secret)).toMatchObject({ claimed: true, final: true });
	expect(await claim('dlr_000000000000000b', hook.secret)).toMatchObject({
		claimed: false,
		final: true,
	});
	await expect(claim('dlr_000000000000000c', 'wrong-secret-0123456789')).rejects.toMatchObject({
		status: 401,
	});
});
