/**
 * A click on a link that a send tracked: the Short Link Trigger's output names the message and its recipient
 * at the top level, beside the event (and beside the data with "Output Only Data"). The sandbox delivers the
 * signed event to the trigger's `webhook()` in n8n-core's `WebhookContext`.
 */
import type { IDataObject } from 'n8n-workflow';

import { PHONE_BROWSER, raw, waitFor } from '../support/sandbox';
import { useTriggerSuite } from '../support/triggers';
import { TRIGGER_TYPES, type Delivery, type TriggerUnderTest } from '../../dev/harness/triggers';

const suite = useTriggerSuite();
let instanceId: string;

beforeAll(async () => {
	const instance = await suite.clients.workspace.instances.create({ body: { name: 'Campaign' } });
	await suite.clients.workspace.instances.connect({
		instanceId: instance.id,
		body: { method: 'qr' },
	});
	await raw(suite.sandbox.baseUrl, 'POST', `/sandbox/instances/${instance.id}/scan`, {
		key: suite.keys.workspace,
		body: {},
	});
	instanceId = instance.id;
});
function activated(options: IDataObject): Promise<TriggerUnderTest> {
	return suite.activated({
		type: TRIGGER_TYPES.shortLink,
		parameters: { events: ['link.clicked'], ...options },
		credentials: {
			multichannelShortLinkApi: { baseUrl: suite.sandbox.baseUrl, apiKey: suite.keys.shortLink },
		},
	});
}

/** Sends a text with tracked links to `to` and opens its (first) short link from a phone. */
async function sendAndClick(to: string): Promise<{ messageId: string; linkId: string }> {
	const message = await suite.clients.workspace.messages.sendText({
		instanceId,
		body: { to, text: 'Spring sale: https://shop.example/spring', trackLinks: true },
	});
	const [tracked] = message.trackedLinks ?? [];
	const visit = await raw(suite.sandbox.baseUrl, 'GET', new URL(tracked.shortUrl).pathname, {
		headers: { 'user-agent': PHONE_BROWSER },
	});
	expect(visit.status).toBe(302);
	return { messageId: message.id, linkId: tracked.linkId as string };
}

function execution(node: TriggerUnderTest, linkId: string): Promise<Delivery> {
	return waitFor(
		() =>
			suite.endpoint
				.executions(node)
				.find((delivery) => delivery.rawBody.includes(`"linkId":"${linkId}"`)),
		5000,
		'the click to start an execution',
	);
}

describe('Short Link Trigger on a tracked link', () => {
	it('outputs the message and the recipient of the click at the top level', async () => {
		const node = await activated({});
		const { messageId, linkId } = await sendAndClick('+14155550171');

		const started = await execution(node, linkId);
		const json = started.items?.[0].json as IDataObject;
		expect(json).toMatchObject({
			type: 'link.clicked',
			messageId,
			recipient: '+14155550171',
			data: {
				link: expect.objectContaining({ id: linkId, messageId, recipient: '+14155550171' }),
				click: expect.objectContaining({ linkId, messageId, recipient: '+14155550171' }),
			},
		});
	});

	it('with Output Only Data, beside the link and the click', async () => {
		const node = await activated({ options: { onlyData: true } });
		const { messageId, linkId } = await sendAndClick('+14155550172');

		const started = await execution(node, linkId);
		const json = started.items?.[0].json as IDataObject;
		expect(Object.keys(json)).toEqual(['messageId', 'recipient', 'link', 'click']);
		expect(json).toMatchObject({ messageId, recipient: '+14155550172' });
	});

	it('a click on a link of its own (not tracked) has no message nor recipient', async () => {
		const node = await activated({});
		const link = await suite.clients.shortLink.links.create({
			body: { url: 'https://example.com/own' },
		});
		await raw(suite.sandbox.baseUrl, 'GET', `/${link.code as string}`, {
			headers: { 'user-agent': PHONE_BROWSER },
		});

		const started = await execution(node, link.id);
		const json = started.items?.[0].json as IDataObject;
		expect(Object.keys(json)).toEqual(['id', 'type', 'createdAt', 'workspaceId', 'data']);
	});
});
