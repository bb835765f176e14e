/**
 * The Multichannel Trigger's Download Media option: the sandbox delivers signed webhooks over loopback to the
 * stand-in for n8n's webhook endpoint (n8n-core's `WebhookContext`), and the file of a received message is on
 * the execution's item as binary data, with the SHA-256 of what the contact sent. Over the size cap, or when the
 * file cannot be downloaded, the event still runs and its item says why no file is attached.
 */
import { createHash } from 'node:crypto';
import type { INodeExecutionData } from 'n8n-workflow';

import type { TriggerUnderTest } from '../../dev/harness/triggers';
import { sampleFile } from '../../sandbox/files/samples';
import { waitFor } from '../support/sandbox';
import { useMessagingTrigger } from '../support/triggers';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

const suite = useMessagingTrigger('Media in', '+14155550170');
const { activated } = suite;

/** A contact sends a sample file; the item of the one execution it starts. */
async function itemFor(
	node: TriggerUnderTest,
	sample: 'image' | 'voice' | 'pdf',
): Promise<{ item: INodeExecutionData; messageId: string; credentialReads: string[] }> {
	const before = suite.endpoint.executions(node).length;
	const sent = await suite.sandboxCall(`/sandbox/instances/${suite.instanceId}/inbound/media`, {
		from: '+14155550171',
		sample,
	});
	expect(sent.status).toBe(201);
	const messageId = (sent.body as { id: string }).id;
	const delivery = await waitFor(
		() => suite.endpoint.executions(node)[before],
		5000,
		`the ${sample} to start the trigger`,
	);
	return {
		item: (delivery.items ?? [])[0],
		messageId,
		credentialReads: delivery.credentialReads,
	};
}

it('with Download Media, a received PDF is on the item as binary data, the same bytes as sent, with no credential read', async () => {
	const node = await activated({ downloadMedia: true }, 'Files');
	const expected = sampleFile('pdf');

	const { item, messageId, credentialReads } = await itemFor(node, 'pdf');

	// Claimed with the webhook's secret, downloaded at the signed URL the event carried: no credential read.
	expect(credentialReads).toEqual([]);
	expect(item.json).toMatchObject({ data: { media: { downloadUrl: expect.any(String) } } });

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
	const before = suite.endpoint.executions(files).length;
	await suite.sandboxCall(`/sandbox/instances/${suite.instanceId}/inbound`, {
		from: '+14155550172',
		text: 'no attachment',
	});
	const text = await waitFor(
		() => suite.endpoint.executions(files)[before],
		5000,
		'the text message',
	);
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
	const { limits } = suite.sandbox.core.media;
	const kept = limits.maxTotalBytes;
	limits.maxTotalBytes = 1; // the file is dropped as soon as it is kept: its download answers 410
	try {
		const { item, messageId } = await itemFor(node, 'image');

		expect(item.binary).toBeUndefined();
		expect(item.json).toMatchObject({ id: messageId, media: { mimeType: 'image/png' } });
		expect(item.json.mediaNotAttached).toMatch(
			/^it could not be downloaded: The file is no longer available: The file of message msg_\w+ is no longer kept/,
		);
		expect(JSON.stringify(item.json)).not.toContain(suite.keys.workspace);
	} finally {
		limits.maxTotalBytes = kept;
	}
});

it('a signed URL that has expired (a delivery that waited) falls back to the key: one credential read', async () => {
	const node = await activated({ downloadMedia: true }, 'Late files');
	const signed = suite.sandbox.core.signedMedia;
	const ttl = signed.ttlMs;
	signed.ttlMs = -1_000; // every URL is already past its time when it is delivered
	try {
		const { item, credentialReads } = await itemFor(node, 'image');

		expect(credentialReads).toEqual(['multichannelApi']);
		expect(sha256(Buffer.from(item.binary?.data.data ?? '', 'base64'))).toBe(
			sha256(sampleFile('image').data),
		);
		expect(item.json).not.toHaveProperty('mediaNotAttached');
	} finally {
		signed.ttlMs = ttl;
	}
});
