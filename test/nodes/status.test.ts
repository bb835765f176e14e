/**
 * The Status resource of the Multichannel node, run as real workflows through n8n-core against the sandbox on
 * loopback: Post (a text on a colour, an image from binary data, a video by URL), Get Many with the view counts
 * contacts make (the sandbox's view endpoint), Delete; a status gone after 24 hours; the bound of live statuses;
 * statuses kept across a restart of the sandbox. The exact requests are pinned in status-wire.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../dev/harness';
import { MAX_STATUSES } from '../../src/client/resources/statuses';
import { raw } from '../support/sandbox';
import {
	byId,
	expectNoSecrets,
	failure,
	multichannelNode,
	NODE_NAME,
	runWithFiles,
	startService,
	type TestService,
} from '../support/nodes';

const START = Date.parse('2026-11-25T08:00:00.000Z');
let clock = START;
let service: TestService;
let instanceId: string;

beforeAll(async () => {
	service = await startService({ now: () => clock });
	instanceId = (await service.connectedInstance('Stories', '+14155550600')).id;
});
afterAll(async () => await service?.close());

const node = (parameters: IDataObject) =>
	multichannelNode('status', { instanceId: byId(instanceId), ...parameters });
const run = async (parameters: IDataObject) => {
	const result = await runNode(node(parameters), { credentials: service.credentials });
	expectNoSecrets(result, [service.apiKey]);
	return result;
};
const view = async (statusId: string, from: string) =>
	await raw(
		service.sandbox.baseUrl,
		'POST',
		`/sandbox/instances/${instanceId}/statuses/${statusId}/view`,
		{ key: service.apiKey, body: { from } },
	);

test('Post a text, an image from binary data and a video by URL; Get Many counts views; Delete; 24 hours', async () => {
	const text = (
		await run({ operation: 'post', type: 'text', text: 'Open Sunday', backgroundColor: '#ff0000' })
	).json(NODE_NAME)[0];
	expect(text).toMatchObject({
		type: 'text',
		text: 'Open Sunday',
		backgroundColor: '#ff0000',
		viewCount: 0,
	});
	expect(Date.parse(String(text.expiresAt)) - Date.parse(String(text.createdAt))).toBe(
		24 * 3600_000,
	);

	clock += 1000;
	const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
	const uploaded = await runWithFiles(
		node({ operation: 'post', type: 'image', source: 'binary', caption: 'New menu' }),
		[{ data: png, fileName: 'menu.png', mimeType: 'image/png' }],
		service.credentials,
	);
	const image = uploaded.json(NODE_NAME)[0];
	expect(image).toMatchObject({
		type: 'image',
		caption: 'New menu',
		media: expect.objectContaining({
			fileName: 'menu.png',
			mimeType: 'image/png',
			size: png.length,
		}),
	});

	clock += 1000;
	const video = (
		await run({
			operation: 'post',
			type: 'video',
			source: 'url',
			url: 'https://example.com/tour.mp4',
		})
	).json(NODE_NAME)[0];
	expect(video).toMatchObject({ type: 'video', url: 'https://example.com/tour.mp4' });

	await view(String(text.id), '+14155550601');
	await view(String(text.id), '+14155550602');
	await view(String(text.id), '+14155550601'); // the same contact again counts once
	await view(String(image.id), '+14155550601');

	const listed = await run({ operation: 'getAll', returnAll: true });
	expect(listed.json(NODE_NAME).map((status) => [status.id, status.viewCount])).toEqual([
		[video.id, 0],
		[image.id, 1],
		[text.id, 2],
	]);

	const deleted = await run({ operation: 'delete', statusId: String(video.id) });
	expect(deleted.json(NODE_NAME)).toEqual([{ deleted: true, id: video.id }]);

	// 24 hours after the text status, it is gone; the image, posted a second later, is not yet.
	clock = START + 24 * 3600_000;
	const later = await run({ operation: 'getAll', returnAll: true });
	expect(later.json(NODE_NAME).map((status) => status.id)).toEqual([image.id]);
	const gone = await run({ operation: 'delete', statusId: String(text.id) });
	expect(failure(gone).message).toMatch(/not found|could not be found/i);
});

test('a URL that is not http(s) is refused naming the field', async () => {
	const badUrl = await run({
		operation: 'post',
		type: 'image',
		source: 'url',
		url: 'ftp://x/y.png',
	});
	expect(failure(badUrl).message).toMatch(/File URL/);
});

test(`an instance keeps at most ${MAX_STATUSES} live statuses`, async () => {
	const { client } = service;
	const live = (await client.statuses.list({ instanceId, query: { limit: 100 } })).data.length;
	for (let n = live; n < MAX_STATUSES; n += 1) {
		await client.statuses.post({ instanceId, body: { type: 'text', text: `Story ${n}` } });
	}
	const refused = await run({ operation: 'post', type: 'text', text: 'One too many' });
	expect(failure(refused).message).toMatch(/at most 30 live statuses|status_limit_reached|409/);
});
