/**
 * What the triggers refuse before anything runs. Deliveries are built here, signed (or not) like the service
 * signs them, and posted to the stand-in for n8n's endpoint of an activated Automation Trigger (and one
 * Multichannel Trigger), whose `webhook()` runs in n8n-core's `WebhookContext`: a tampered body, a wrong
 * secret, a stale timestamp, a missing or malformed header get 401; a signed body that is no event gets 400;
 * a replayed event id and events the node did not ask for are acknowledged (200). None starts an execution.
 * An event is run once however often and however concurrently it arrives: the trigger claims it at the service.
 */
import { signPayload } from '../../src/client';
import type { Sandbox } from '../../sandbox/server';
import { raw, recordDelivery, startTestSandbox } from '../support/sandbox';
import { startScriptedServer } from '../support/scripted-server';
import {
	logLines,
	N8nEndpoint,
	TRIGGER_TYPES,
	TriggerUnderTest,
	type Delivery,
} from '../../dev/harness/triggers';

type Keys = NonNullable<Sandbox['keys']>;

let sandbox: Sandbox;
let endpoint: N8nEndpoint;
let automation: TriggerUnderTest;
let messaging: TriggerUnderTest;
let eventCount = 0;

beforeAll(async () => {
	sandbox = await startTestSandbox({ rateLimit: false });
	const keys = sandbox.keys as Keys;
	endpoint = await new N8nEndpoint().start();
	const credentials = {
		multichannelApi: { baseUrl: sandbox.baseUrl, apiKey: keys.workspace },
		multichannelAutomationApi: { baseUrl: sandbox.baseUrl, apiKey: keys.automation },
	};
	automation = new TriggerUnderTest(endpoint, {
		type: TRIGGER_TYPES.automation,
		parameters: { listenTo: 'chosen', eventNames: 'order.created' },
		credentials,
	});
	messaging = new TriggerUnderTest(endpoint, {
		type: TRIGGER_TYPES.messaging,
		parameters: { events: ['message.received'], instanceIds: ['inst_chosen'] },
		credentials,
	});
	await automation.activate();
	await messaging.activate();
});
afterAll(async () => {
	await automation.deactivate();
	await messaging.deactivate();
	await endpoint.close();
	await sandbox.close();
});

interface Registration {
	secret: string;
	webhookId: string;
	serviceUrl?: string;
	signedClaims?: boolean;
}
const registrationOf = (node: TriggerUnderTest) =>
	(node.nodeStaticData().webhooks as Record<string, Registration>)[node.webhookUrl()];
const secretOf = (node: TriggerUnderTest) => registrationOf(node).secret;
const webhookIdOf = (node: TriggerUnderTest) => registrationOf(node).webhookId;

function event(
	type = 'automation.order.created',
	data: object = { id: 'aev_1', payload: { n: 1 } },
) {
	eventCount++;
	return JSON.stringify({
		id: `evt_test_${eventCount}_${Date.now()}`,
		type,
		createdAt: new Date().toISOString(),
		workspaceId: sandbox.workspaceId,
		data,
	});
}

let deliveryCount = 0;
/** Each request the service sends has an id of its own, which the trigger names in its claim. */
const deliveryId = () => ({ 'x-multichannel-delivery-id': `dlr_test_${++deliveryCount}` });

/**
 * The sandbox takes claims only of events it delivered: the events made up here are recorded as delivered, and
 * announced as delivered by someone else, so that a claim naming a delivery id the sandbox never sent is final at
 * once (not a lease on an attempt of its own, which it would refuse as closed).
 */
function deliveredAtSandbox(node: TriggerUnderTest, body: string) {
	let id: unknown;
	try {
		id = (JSON.parse(body) as { id?: unknown }).id;
	} catch {
		return;
	}
	const webhookId = (node.nodeStaticData().webhooks as Record<string, Registration> | undefined)?.[
		node.webhookUrl()
	]?.webhookId;
	if (typeof id === 'string' && webhookId && !sandbox.store.get('deliveries', `dlv_${id}`)) {
		recordDelivery(sandbox, webhookId, id);
		sandbox.core.announcedEvents.add(`${webhookId}:${id}`);
	}
}

/** Posts a body to the node's production URL with the given signature header (or none). */
async function post(
	node: TriggerUnderTest,
	body: string,
	signature: string | undefined,
): Promise<Delivery> {
	const before = endpoint.of(node).length;
	const headers: Record<string, string> = { 'content-type': 'application/json', ...deliveryId() };
	if (signature !== undefined) headers['x-multichannel-signature'] = signature;
	deliveredAtSandbox(node, body);
	const path = new URL(node.webhookUrl()).pathname;
	const answer = await raw(endpoint.url, 'POST', path, { body, headers });
	const delivery = endpoint.of(node)[before];
	expect(delivery.status).toBe(answer.status);
	return delivery;
}

const now = () => Math.floor(Date.now() / 1000);

function expectRefused(delivery: Delivery, status: 400 | 401 | 503) {
	expect(delivery.status).toBe(status);
	expect(delivery.items).toBeUndefined();
	expect(delivery.error).toBeUndefined();
	// Never acknowledged: the service delivers it again (503) or gives up on it.
	expect(delivery.responseHeaders).not.toHaveProperty('x-multichannel-ack');
}

it('runs a correctly signed event (the control case), reading no credential to claim it', async () => {
	expect(registrationOf(automation)).toMatchObject({
		serviceUrl: sandbox.baseUrl,
		signedClaims: true,
	});
	const body = event();
	const delivery = await post(automation, body, signPayload(secretOf(automation), body));
	expect(delivery.status).toBe(200);
	expect(delivery.items).toHaveLength(1);
	expect(delivery.items?.[0].json).toMatchObject({ type: 'automation.order.created' });
	expect(delivery.credentialReads).toEqual([]);
	const id = (JSON.parse(body) as { id: string }).id;
	expect(sandbox.store.get('claims', `${webhookIdOf(automation)}:${id}`)).toBeDefined();
});

it('claims with the API key, reading the credential once, for a registration made before signed claims', async () => {
	const registration = registrationOf(automation);
	const kept = { ...registration };
	delete registration.serviceUrl;
	delete registration.signedClaims;
	try {
		const body = event();
		const first = await post(automation, body, signPayload(secretOf(automation), body));
		expect(first.items).toHaveLength(1);
		expect(first.credentialReads).toEqual(['multichannelAutomationApi']);
		const again = await post(automation, body, signPayload(secretOf(automation), body));
		expect(JSON.parse(again.responseBody)).toMatchObject({ reason: 'duplicate' });
	} finally {
		// The static data was saved anew by the call that started nothing: the registration is a new object.
		Object.assign(registrationOf(automation), kept);
	}
});

it('refuses a tampered body with 401', async () => {
	const body = event();
	const signature = signPayload(secretOf(automation), body);
	const tampered = body.replace('"n":1', '"n":2');
	expect(tampered).not.toBe(body);
	const delivery = await post(automation, tampered, signature);
	expectRefused(delivery, 401);
	expect(JSON.parse(delivery.responseBody)).toMatchObject({ error: { code: 'invalid_signature' } });
});

it('refuses a signature made with another secret with 401', async () => {
	const body = event();
	expectRefused(
		await post(automation, body, signPayload('a-secret-that-is-not-ours-0123', body)),
		401,
	);
	// Not even the secret of another trigger of the same workspace.
	expectRefused(await post(automation, body, signPayload(secretOf(messaging), body)), 401);
});

it('refuses a stale timestamp (more than 300 s away) with 401, and accepts one within it', async () => {
	const body = event();
	const secret = secretOf(automation);
	expectRefused(await post(automation, body, signPayload(secret, body, now() - 301)), 401);
	// Ahead by more than a second over the bound: the trigger reads its clock a moment later, and a second boundary
	// passed in between made +301 a 300 (accepted) once under load. The exact bound: test/client/signature.test.ts.
	expectRefused(await post(automation, body, signPayload(secret, body, now() + 330)), 401);
	const recent = await post(automation, body, signPayload(secret, body, now() - 200));
	expect(recent.status).toBe(200);
	expect(recent.items).toHaveLength(1);
});

it('refuses a missing or malformed signature header with 401', async () => {
	const body = event();
	expectRefused(await post(automation, body, undefined), 401);
	expectRefused(await post(automation, body, ''), 401);
	expectRefused(await post(automation, body, 'v1=deadbeef'), 401);
	expectRefused(await post(automation, body, `t=${now()}`), 401);
	expectRefused(await post(automation, body, `t=${now()},v1=${'z'.repeat(64)}`), 401);
});

it('refuses a signed body that is not an event with 400', async () => {
	const secret = secretOf(automation);
	for (const body of ['{"id": "evt_1", "type":', '[1,2,3]', '{"hello":"world"}', '']) {
		const delivery = await post(automation, body, signPayload(secret, body));
		expectRefused(delivery, 400);
		expect(JSON.parse(delivery.responseBody)).toMatchObject({ error: { code: 'invalid_body' } });
	}
});

it('acknowledges a replayed event id without running it again, even freshly signed', async () => {
	const body = event();
	const secret = secretOf(automation);
	const first = await post(automation, body, signPayload(secret, body));
	expect(first.items).toHaveLength(1);
	const replay = await post(automation, body, signPayload(secret, body));
	const later = await post(automation, body, signPayload(secret, body, now() + 5));
	for (const delivery of [replay, later]) {
		expect(delivery.status).toBe(200);
		expect(delivery.items).toBeUndefined();
		expect(JSON.parse(delivery.responseBody)).toMatchObject({
			executed: false,
			reason: 'duplicate',
		});
	}
});

it('runs an event delivered many times at once exactly once', async () => {
	const body = event();
	const secret = secretOf(automation);
	const before = endpoint.of(automation).length;
	const path = new URL(automation.webhookUrl()).pathname;
	deliveredAtSandbox(automation, body);
	const answers = await Promise.all(
		Array.from({ length: 20 }, () =>
			raw(endpoint.url, 'POST', path, {
				body,
				headers: {
					'content-type': 'application/json',
					...deliveryId(),
					'x-multichannel-signature': signPayload(secret, body),
				},
			}),
		),
	);
	expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
	const deliveries = endpoint.of(automation).slice(before);
	expect(deliveries).toHaveLength(20);
	expect(deliveries.filter((delivery) => delivery.items !== undefined)).toHaveLength(1);
});

it('answers 503 and runs nothing while the event cannot be claimed, then runs it once', async () => {
	const body = event();
	const secret = secretOf(automation);
	const registration = registrationOf(automation);
	const baseUrl = registration.serviceUrl;
	registration.serviceUrl = 'http://127.0.0.1:9'; // nothing listens on the discard port
	try {
		const refused = await post(automation, body, signPayload(secret, body));
		expectRefused(refused, 503);
		expect(JSON.parse(refused.responseBody)).toMatchObject({ error: { code: 'claim_failed' } });
	} finally {
		registrationOf(automation).serviceUrl = baseUrl;
	}
	const again = await post(automation, body, signPayload(secret, body));
	expect(again.items).toHaveLength(1);
	const third = await post(automation, body, signPayload(secret, body));
	expect(third.items).toBeUndefined();
	expect(JSON.parse(third.responseBody)).toMatchObject({ reason: 'duplicate' });
});

it('runs every delivery, with a warning, against a service that takes no claims', async () => {
	const service = await startScriptedServer([
		{ status: 404, body: { error: { code: 'not_found', message: 'No such endpoint' } } },
		{ status: 405, body: { error: { code: 'method_not_allowed', message: 'Not allowed' } } },
	]);
	const body = event();
	const secret = secretOf(automation);
	const credential = automation.credentials.multichannelAutomationApi;
	const baseUrl = credential.baseUrl;
	credential.baseUrl = service.baseUrl;
	// A service without signed claims answered the registration without `signedClaims`.
	const registration = registrationOf(automation);
	delete registration.signedClaims;
	try {
		for (let round = 0; round < 2; round++) {
			const delivery = await post(automation, body, signPayload(secret, body));
			expect(delivery.items).toHaveLength(1);
		}
	} finally {
		credential.baseUrl = baseUrl;
		registrationOf(automation).signedClaims = true;
		await service.close();
	}
	expect(service.requests.map((request) => request.url)).toEqual([
		`/api/v1/automation/webhooks/${webhookIdOf(automation)}/claims`,
		`/api/v1/automation/webhooks/${webhookIdOf(automation)}/claims`,
	]);
	expect(logLines.some((line) => /does not take event claims/.test(line))).toBe(true);
});

it('acknowledges and drops events the node did not ask for', async () => {
	const secret = secretOf(automation);
	const other = event('automation.order.paid');
	const dropped = await post(automation, other, signPayload(secret, other));
	expect(dropped.status).toBe(200);
	expect(dropped.items).toBeUndefined();
	expect(JSON.parse(dropped.responseBody)).toMatchObject({ executed: false });

	const messagingSecret = secretOf(messaging);
	const wrongInstance = event('message.received', { id: 'msg_1', instanceId: 'inst_other' });
	const wrongType = event('message.sent', { id: 'msg_2', instanceId: 'inst_chosen' });
	const wanted = event('message.received', { id: 'msg_3', instanceId: 'inst_chosen' });
	for (const body of [wrongInstance, wrongType]) {
		const delivery = await post(messaging, body, signPayload(messagingSecret, body));
		expect(delivery.status).toBe(200);
		expect(delivery.items).toBeUndefined();
	}
	const run = await post(messaging, wanted, signPayload(messagingSecret, wanted));
	expect(run.items?.[0].json).toMatchObject({ data: { id: 'msg_3' } });
});

it('refuses everything when the node has no registration (never activated) with 401', async () => {
	const orphan = new TriggerUnderTest(endpoint, {
		type: TRIGGER_TYPES.automation,
		parameters: {},
		credentials: {},
	});
	const body = event();
	expectRefused(await post(orphan, body, signPayload(secretOf(automation), body)), 401);
});

it('never writes a secret into a log line or a response', () => {
	const secrets = [secretOf(automation), secretOf(messaging)];
	const everything = [
		logLines.join('\n'),
		...endpoint.deliveries.map((delivery) => delivery.responseBody),
		...endpoint.deliveries.map((delivery) => JSON.stringify(delivery.items ?? [])),
	].join('\n');
	expect(logLines.some((line) => /refused a delivery/.test(line))).toBe(true);
	for (const secret of secrets) expect(everything).not.toContain(secret);
});
