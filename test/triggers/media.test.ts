/**
 * The Multichannel Trigger's Download Media option: the sandbox delivers signed webhooks over loopback to the
 * stand-in for n8n's webhook endpoint (n8n-core's `WebhookContext`), and the file of a received message is on
 * the execution's item as binary data, with the SHA-256 of what the contact sent. Over the size cap, or when the
 * file cannot be downloaded, the event still runs and its item says why no file is attached.
 */
import { createHash } from 'node:crypto';
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { sampleFile } from '../../sandbox/samples';
import type { Sandbox } from '../../sandbox/server';
import { clientsFor, raw, startTestSandbox, waitFor } from '../support/sandbox';
import { N8nEndpoint, TRIGGER_TYPES, TriggerUnderTest } from '../../dev/harness/triggers';

type Keys = NonNullable<Sandbox['keys']>;
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

let sandbox: Sandbox;
let keys: Keys;
let endpoint: N8nEndpoint;
let instanceId: string;
const active: TriggerUnderTest[] = [];

const sandboxCall = (path: string, body: unknown = {}) =>
	raw(sandbox.baseUrl, 'POST', path, { key: keys.workspace, body });

beforeAll(async () => {
	sandbox = await startTestSandbox({ rateLimit: false });
	keys = sandbox.keys as Keys;
	const client = clientsFor(sandbox.baseUrl, keys).workspace;
	endpoint = await new N8nEndpoint().start();
	const instance = await client.instances.create({ body: { name: 'Media in' } });
	await client.instances.connect({ instanceId: instance.id, body: { method: 'qr' } });
	await sandboxCall(`/sandbox/instances/${instance.id}/scan`, { phoneNumber: '+14155550170' });
	instanceId = instance.id;
});
afterAll(async () => {
	for (const node of active) await node.deactivate();
	await endpoint.close();
	await sandbox.close();
});

async function activated(options: INodeParameters, name: string) {
	const node = new TriggerUnderTest(endpoint, {
		type: TRIGGER_TYPES.messaging,
		name,
		credentials: { multichannelApi: { baseUrl: sandbox.baseUrl, apiKey: keys.workspace } },
		parameters: { events: ['message.received'], options },
	});
	await node.activate();
	active.push(node);
	return node;
}

/** A contact sends a sample file; the item of the one execution it starts. */
async function itemFor(
	node: TriggerUnderTest,
	sample: 'image' | 'voice' | 'pdf',
): Promise<{ item: INodeExecutionData; messageId: string }> {
	const before = endpoint.executions(node).length;
	const sent = await sandboxCall(`/sandbox/instances/${instanceId}/inbound/media`, {
		from: '+14155550171',
		sample,
	});
	expect(sent.status).toBe(201);
	const messageId = (sent.body as { id: string }).id;
	const delivery = await waitFor(
		() => endpoint.executions(node)[before],
		5000,
		`the ${sample} to start the trigger`,
	);
	return { item: (delivery.items ?? [])[0], messageId };
}

it('with Download Media, a received PDF is on the item as binary data, the same bytes as sent', async () => {
	const node = await activated({ downloadMedia: true }, 'Files');
	const expected = sampleFile('pdf');

	const { item, messageId } = await itemFor(node, 'pdf');

	expect(item.json).toMatchObject({
		type: 'message.received',
		data: { id: messageId, media: { sha256: sha256(expected.data), mimeType: 'application/pdf' } },
	});
	expect(item.json).not.toHaveProperty('mediaNotAttached');
	const binary = item.binary?.data;
	expect(binary).toMatchObject({ fileName: expected.fileName, mimeType: 'application/pdf' });
	expect(sha256(Buffer.from(binary?.data ?? '', 'base64'))).toBe(sha256(expected.data));
});

it('without the option the item carries the file’s description only; a text message has no file either way', async () => {
	const without = await activated({}, 'No files');
	const { item } = await itemFor(without, 'image');
	expect(item.binary).toBeUndefined();
	expect(item.json).toMatchObject({ data: { media: { mimeType: 'image/png' } } });

	const files = await activated({ downloadMedia: true, onlyData: true }, 'Files, data only');
	const before = endpoint.executions(files).length;
	await sandboxCall(`/sandbox/instances/${instanceId}/inbound`, {
		from: '+14155550172',
		text: 'no attachment',
	});
	const text = await waitFor(() => endpoint.executions(files)[before], 5000, 'the text message');
	expect(text.items?.[0].binary).toBeUndefined();
	expect(text.items?.[0].json).not.toHaveProperty('mediaNotAttached');
});

it('over Max File Size the event runs without the file, and its item says why', async () => {
	const node = await activated({ downloadMedia: true, maxFileSizeMb: 0.0001 }, 'Small files only');

	const { item } = await itemFor(node, 'voice');

	expect(item.binary).toBeUndefined();
	expect(item.json.mediaNotAttached).toBe(
		`the file is ${sampleFile('voice').data.length} bytes, over Max File Size (0.0001 MB)`,
	);
});

it('a file that cannot be downloaded (gone at the service) leaves the event running, saying why', async () => {
	const node = await activated({ downloadMedia: true, onlyData: true }, 'Gone files');
	const { limits } = sandbox.core.media;
	const kept = limits.maxTotalBytes;
	limits.maxTotalBytes = 1; // the file is dropped as soon as it is kept: its download answers 410
	try {
		const { item, messageId } = await itemFor(node, 'image');

		expect(item.binary).toBeUndefined();
		expect(item.json).toMatchObject({ id: messageId, media: { mimeType: 'image/png' } });
		expect(item.json.mediaNotAttached).toMatch(
			/^it could not be downloaded: The file is no longer available: The file of message msg_\w+ is no longer kept/,
		);
		expect(JSON.stringify(item.json)).not.toContain(keys.workspace);
	} finally {
		limits.maxTotalBytes = kept;
	}
});
