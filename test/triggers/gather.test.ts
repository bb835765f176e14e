/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code runs in plain Node, never inside n8n; it reads the output schema n8n serves */
/**
 * The Multichannel Trigger's "Gather Messages From the Same Chat": activating registers the webhook with
 * `gather`, the sandbox delivers a burst as one event over loopback to n8n-core's webhook context, and the
 * trigger starts once with the messages in order; with Download Media each message's file is in a binary field
 * of its own (data, data_1 …) or the message says why not, each field one the output schema offers; Only Replies
 * still starts for a tap alone and never for a burst. No delivery reads the credential.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { TriggerUnderTest } from '../../dev/harness/triggers';
import { sampleFile } from '../../sandbox/files/samples';
import { sleep, waitFor } from '../support/sandbox';
import { useMessagingTrigger } from '../support/triggers';

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

const suite = useMessagingTrigger('Gathering', '+14155550190');
const { activated } = suite;
const CONTACT = '+14155550191';

const gathering = (quietSeconds: number, maxWaitSeconds = 20) => ({
	gather: { settings: { quietSeconds, maxWaitSeconds } },
});

const write = async (text: string, from = CONTACT) =>
	(
		(await suite.sandboxCall(`/sandbox/instances/${suite.instanceId}/inbound`, { from, text }))
			.body as { id: string }
	).id;

/** The fields the trigger's output schema offers on each gathered message (what the editor maps from). */
const schemaOfMessage = () => {
	const file = path.join(__dirname, '../../nodes/MultichannelTrigger/__schema__/v2.0.0.json');
	const schema = JSON.parse(readFileSync(file, 'utf8'));
	return schema.properties.data.properties.messages.items.properties as Record<string, object>;
};

/** Every field of the gathered messages the trigger output is one its output schema offers. */
function expectInSchema(messages: Array<Record<string, unknown>>) {
	const described = Object.keys(schemaOfMessage());
	for (const message of messages)
		expect(described).toEqual(expect.arrayContaining(Object.keys(message)));
}

async function executionOf(node: TriggerUnderTest, index = 0) {
	return await waitFor(() => suite.endpoint.executions(node)[index], 6000, 'an execution');
}

it('registers the webhook with gather, and starts once for a burst, its messages in order, with no credential read', async () => {
	const node = await activated(gathering(1, 30), 'Burst');
	const hooks = await suite.client.webhooks.list({});
	expect(hooks.data.find((hook) => hook.url === node.webhookUrl())).toMatchObject({
		gather: { quietSeconds: 1, maxWaitSeconds: 30 },
	});

	const ids = [];
	for (const text of ['hi', 'I ordered yesterday', 'where is it?']) {
		ids.push(await write(text));
		await sleep(300);
	}
	const execution = await executionOf(node);
	await sleep(1500);
	expect(suite.endpoint.executions(node)).toHaveLength(1);
	expect(execution.credentialReads).toEqual([]);
	const [item] = execution.items ?? [];
	expect(item.json).toMatchObject({
		type: 'message.received',
		data: { gathered: true, count: 3, messageIds: ids, from: CONTACT },
	});
	const messages = (item.json.data as { messages: Array<{ content: { text: string } }> }).messages;
	expect(messages.map((message) => message.content.text)).toEqual([
		'hi',
		'I ordered yesterday',
		'where is it?',
	]);
});

it('with Download Media each message’s file is in its own binary field, named on the message', async () => {
	const node = await activated({ ...gathering(1), downloadMedia: true, onlyData: true }, 'Files');
	const from = '+14155550192';
	const image = await suite.sandboxCall(`/sandbox/instances/${suite.instanceId}/inbound/media`, {
		from,
		sample: 'image',
	});
	await write('and the invoice:', from);
	const pdf = await suite.sandboxCall(`/sandbox/instances/${suite.instanceId}/inbound/media`, {
		from,
		sample: 'pdf',
	});
	const execution = await executionOf(node);
	expect(execution.credentialReads).toEqual([]);
	const [item] = execution.items ?? [];
	const messages = item.json.messages as Array<Record<string, unknown>>;
	expect(messages.map((message) => message.id)).toEqual([
		(image.body as { id: string }).id,
		expect.any(String),
		(pdf.body as { id: string }).id,
	]);
	expect(messages.map((message) => message.binaryField)).toEqual(['data', undefined, 'data_1']);
	expect(Object.keys(item.binary ?? {})).toEqual(['data', 'data_1']);
	const bytes = (field: string) => Buffer.from(item.binary?.[field]?.data ?? '', 'base64');
	expect(sha256(bytes('data'))).toBe(sha256(sampleFile('image').data));
	expect(sha256(bytes('data_1'))).toBe(sha256(sampleFile('pdf').data));
	expect(item.binary?.data_1).toMatchObject({ mimeType: 'application/pdf' });
	expectInSchema(messages);
});

it('with Download Media a file over Max File Size is described on its message, not attached', async () => {
	const node = await activated(
		{ ...gathering(1), downloadMedia: true, maxFileSizeMb: 0.001, onlyData: true },
		'Too big',
	);
	const from = '+14155550193';
	await write('look:', from);
	await suite.sandboxCall(`/sandbox/instances/${suite.instanceId}/inbound/media`, {
		from,
		sample: 'image',
	});
	const [item] = (await executionOf(node)).items ?? [];
	const messages = item.json.messages as Array<Record<string, unknown>>;
	expect(messages.map((message) => message.mediaNotAttached)).toEqual([
		undefined,
		// The size in the words a chat's history uses for the same file (test/nodes/words.test.ts).
		'the file is 11.0 KB, over Max File Size (0.001 MB)',
	]);
	expect(item.binary).toBeUndefined();
	expectInSchema(messages);
});

it('with Only Replies a tap starts it alone, at once, and a burst never does', async () => {
	const node = await activated({ ...gathering(1), onlyReplies: true, taps: 'all' }, 'Taps');
	const sent = await suite.client.messages.sendButtons({
		instanceId: suite.instanceId,
		body: { to: CONTACT, text: 'Pick one', buttons: [{ id: 'yes', title: 'Yes' }] },
	});
	await write('a text before the tap');
	await suite.sandboxCall(`/sandbox/instances/${suite.instanceId}/messages/${sent.id}/tap`, {
		id: 'yes',
	});
	const tap = await executionOf(node);
	expect(tap.items?.[0].json).toMatchObject({ reply: { id: 'yes' } });
	// The burst's event arrives after its quiet period and is acknowledged without starting anything.
	await waitFor(
		() => suite.endpoint.of(node).find((delivery) => delivery.rawBody.includes('"gathered":true')),
		4000,
		'the gathered event',
	);
	expect(suite.endpoint.executions(node)).toHaveLength(1);
});

it('refuses a quiet period out of range on activation, naming the field', async () => {
	await expect(activated(gathering(0), 'Too short')).rejects.toThrow(
		'Gather Messages From the Same Chat › Quiet Period (Seconds)',
	);
	await expect(activated(gathering(3, 301), 'Too long')).rejects.toThrow('Max Wait (Seconds)');
});
