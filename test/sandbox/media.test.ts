/* eslint-disable @n8n/community-nodes/no-restricted-imports -- tests run in plain Node, never inside n8n */
/**
 * The files of media messages in the sandbox: kept when sent (upload or URL) and when received (a sample or an
 * upload), served back byte for byte by `GET /api/v1/messages/{messageId}/media` with their headers, 404 without a
 * file, 410 once expired or dropped for room, 413 past the largest file.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

import { encodeMultipart, NotFoundError } from '../../src/client';
import { sampleFile, SAMPLE_NAMES } from '../../sandbox/files/samples';
import type { Sandbox, SandboxOptions } from '../../sandbox/server';
import { clientsFor, connectedInstance, raw, startTestSandbox, waitFor } from '../support/sandbox';

type Keys = NonNullable<Sandbox['keys']>;
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function start(options: SandboxOptions = {}) {
	const sandbox = await startTestSandbox({ rateLimit: false, ...options });
	const keys = sandbox.keys as Keys;
	const client = clientsFor(sandbox.baseUrl, keys).workspace;
	const instance = await connectedInstance(sandbox, 'Media', '+14155550190');
	/** POSTs bytes as they are (raw() sends text). */
	const post = async (path: string, body: Buffer, contentType: string) => {
		const response = await request(`${sandbox.baseUrl}${path}`, {
			method: 'POST',
			headers: { authorization: `Bearer ${keys.workspace}`, 'content-type': contentType },
			body,
		});
		return { status: response.statusCode, body: (await response.body.json()) as never };
	};
	const getMedia = async (messageId: string) => {
		const response = await request(`${sandbox.baseUrl}/api/v1/messages/${messageId}/media`, {
			headers: { authorization: `Bearer ${keys.workspace}` },
		});
		return {
			status: response.statusCode,
			headers: response.headers,
			data: Buffer.from(await response.body.arrayBuffer()),
		};
	};
	return { sandbox, keys, client, instanceId: instance.id, post, getMedia };
}

describe('media files in the sandbox', () => {
	let env: Awaited<ReturnType<typeof start>>;
	beforeAll(async () => {
		// Its file server for media by URL is on loopback, which the sandbox refuses unless told otherwise.
		env = await start({ outbound: { mediaFromLoopback: true } });
	});
	afterAll(async () => await env.sandbox.close());

	test('an uploaded file comes back byte for byte, with its type, name and length', async () => {
		const data = randomBytes(70_000); // not UTF-8: text handling anywhere would change it
		const upload = encodeMultipart(
			{ to: '+14155550191', mediaType: 'document', fileName: 'Offre spéciale "été".bin' },
			{ data, fileName: 'ignored.bin', mimeType: 'application/x-test' },
		);
		const sent = await env.post(
			`/api/v1/instances/${env.instanceId}/messages/media/upload`,
			upload.body,
			upload.contentType,
		);
		expect(sent.status).toBe(201);
		const message = sent.body as { id: string; media: Record<string, unknown> };
		expect(message.media).toEqual({
			id: expect.stringMatching(/^med_/),
			mimeType: 'application/x-test',
			fileName: 'Offre spéciale "été".bin',
			size: data.length,
			sha256: sha256(data),
		});

		const file = await env.getMedia(message.id);
		expect(file.status).toBe(200);
		expect(sha256(file.data)).toBe(sha256(data));
		expect(file.headers['content-type']).toBe('application/x-test');
		expect(file.headers['content-length']).toBe(String(data.length));
		expect(file.headers['content-disposition']).toBe(
			`attachment; filename="Offre sp_ciale __t__.bin"; filename*=UTF-8''Offre%20sp%C3%A9ciale%20%22%C3%A9t%C3%A9%22.bin`,
		);

		// The typed client reads the same bytes and names the file from filename*.
		const downloaded = await env.client.messages.downloadMedia({ messageId: message.id });
		expect(downloaded).toEqual({
			data,
			mimeType: 'application/x-test',
			fileName: 'Offre spéciale "été".bin',
			size: data.length,
		});
	});

	test.each(SAMPLE_NAMES)(
		'an injected inbound %s sample arrives as message.received with its media, and downloads as sent',
		async (sample) => {
			const expected = sampleFile(sample);
			const response = await raw(
				env.sandbox.baseUrl,
				'POST',
				`/sandbox/instances/${env.instanceId}/inbound/media`,
				{ key: env.keys.workspace, body: { from: '+14155550192', sample, caption: 'Here it is' } },
			);
			expect(response.status).toBe(201);
			const message = response.body as { id: string; type: string; content: object; media: object };
			expect(message.type).toBe({ image: 'image', voice: 'voice', pdf: 'document', sticker: 'sticker' }[sample]);
			expect(message.media).toMatchObject({
				mimeType: expected.mimeType,
				fileName: expected.fileName,
				size: expected.data.length,
				sha256: sha256(expected.data),
			});
			expect(message.content).toMatchObject({
				caption: 'Here it is',
				sha256: sha256(expected.data),
			});
			const event = env.sandbox.events.find(
				(candidate) =>
					candidate.type === 'message.received' &&
					(candidate.data as { id: string }).id === message.id,
			);
			expect((event?.data as { media: object }).media).toEqual(message.media);

			const file = await env.getMedia(message.id);
			expect(sha256(file.data)).toBe(sha256(expected.data));
			const magic = { image: '\x89PNG', voice: 'OggS', pdf: '%PDF', sticker: 'RIFF' }[sample];
			expect(file.data.subarray(0, 4).toString('latin1')).toBe(magic);
		},
	);

	test('an inbound upload of one’s own file round-trips exactly', async () => {
		const data = randomBytes(5_000);
		const upload = encodeMultipart(
			{ from: '+14155550193', caption: 'my scan' },
			{ data, fileName: 'scan.jpg', mimeType: 'image/jpeg' },
		);
		const received = await env.post(
			`/sandbox/instances/${env.instanceId}/inbound/media/upload`,
			upload.body,
			upload.contentType,
		);
		expect(received.status).toBe(201);
		const message = received.body as { id: string; type: string; direction: string };
		expect(message).toMatchObject({ type: 'image', direction: 'inbound' });
		expect(sha256((await env.getMedia(message.id)).data)).toBe(sha256(data));
	});

	test('a message without a file, or an unknown message: 404 naming why', async () => {
		const text = await env.client.messages.sendText({
			instanceId: env.instanceId,
			body: { to: '+14155550194', text: 'no file here' },
		});
		const none = await raw(env.sandbox.baseUrl, 'GET', `/api/v1/messages/${text.id}/media`, {
			key: env.keys.workspace,
		});
		expect(none.status).toBe(404);
		expect(none.body).toMatchObject({ error: { code: 'no_media' } });
		await expect(
			env.client.messages.downloadMedia({ messageId: 'msg_unknown' }),
		).rejects.toBeInstanceOf(NotFoundError);
	});

	test('keeps only the base name of a file, without control characters', async () => {
		const cases: Array<[string, string]> = [
			['../../../etc/passwd', 'passwd'],
			['C:\\Users\\me\\..\\evil\u0007\r\n.txt', 'evil.txt'],
			['..', ''],
			// (a name over 255 characters is refused: media-types.test.ts)
		];
		for (const [given, kept] of cases) {
			const upload = encodeMultipart(
				{ from: '+14155550191' },
				{ data: Buffer.from('file'), fileName: given, mimeType: 'text/plain' },
			);
			const received = await env.post(
				`/sandbox/instances/${env.instanceId}/inbound/media/upload`,
				upload.body,
				upload.contentType,
			);
			expect([given, received.status]).toEqual([given, 201]);
			const media = (received.body as { media: { fileName: string | null } }).media;
			expect([given, media.fileName]).toEqual([given, kept || null]);
			const id = (received.body as { id: string }).id;
			const download = await env.getMedia(id);
			const disposition = String(download.headers['content-disposition']);
			expect(disposition).not.toMatch(/\.\.|etc%2F|\/|\\|%0[0-9A-F]/i);
		}
		// A name given in the send's fields is kept the same way.
		const upload = encodeMultipart(
			{ to: '+14155550191', mediaType: 'document', fileName: '../../secret/../notes.txt' },
			{ data: Buffer.from('notes'), fileName: 'x.txt', mimeType: 'text/plain' },
		);
		const sent = await env.post(
			`/api/v1/instances/${env.instanceId}/messages/media/upload`,
			upload.body,
			upload.contentType,
		);
		expect((sent.body as { media: { fileName: string } }).media.fileName).toBe('notes.txt');
	});

	test('a file sent by URL is fetched by the sandbox and kept with the message', async () => {
		const data = randomBytes(3_000);
		const server: Server = createServer((req, res) => {
			res.writeHead(200, { 'Content-Type': 'audio/mpeg' });
			res.end(data);
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		try {
			const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/files/song.mp3`;
			const sent = await env.client.messages.sendMedia({
				instanceId: env.instanceId,
				body: { to: '+14155550195', mediaType: 'audio', url },
			});
			const media = await waitFor(
				() => env.sandbox.store.get('messages', sent.id)?.media ?? undefined,
				5000,
				'the file at the URL to be kept',
			);
			expect(media).toMatchObject({
				mimeType: 'audio/mpeg',
				fileName: 'song.mp3',
				sha256: sha256(data),
			});
			expect(sha256((await env.getMedia(sent.id)).data)).toBe(sha256(data));
		} finally {
			await new Promise<void>((resolve) => server.close(() => resolve()));
		}
	});
});

describe('media files are kept within bounds', () => {
	test('past their age they are gone: 410, while the message still describes its file', async () => {
		let now = Date.now();
		const env = await start({ now: () => now, media: { ttlMs: 60_000 } });
		try {
			const message = (
				await raw(
					env.sandbox.baseUrl,
					'POST',
					`/sandbox/instances/${env.instanceId}/inbound/media`,
					{
						key: env.keys.workspace,
						body: { from: '+14155550196', sample: 'pdf' },
					},
				)
			).body as { id: string };
			expect((await env.getMedia(message.id)).status).toBe(200);
			now += 61_000;
			const gone = await raw(env.sandbox.baseUrl, 'GET', `/api/v1/messages/${message.id}/media`, {
				key: env.keys.workspace,
			});
			expect(gone.status).toBe(410);
			expect(gone.body).toMatchObject({ error: { code: 'media_gone' } });
			await expect(
				env.client.messages.downloadMedia({ messageId: message.id }),
			).rejects.toMatchObject({ status: 410, code: 'media_gone' });
			expect(env.sandbox.store.get('messages', message.id)?.media?.sha256).toBeDefined();
		} finally {
			await env.sandbox.close();
		}
	});

	test('past the total the oldest go first; past the largest file an upload is refused (413)', async () => {
		const env = await start({ media: { maxTotalBytes: 2_500, maxFileBytes: 2_000 } });
		try {
			const ids: string[] = [];
			for (let index = 0; index < 3; index++) {
				const upload = encodeMultipart(
					{ from: '+14155550197' },
					{
						data: randomBytes(1_000),
						fileName: `f${index}.bin`,
						mimeType: 'application/octet-stream',
					},
				);
				const response = await env.post(
					`/sandbox/instances/${env.instanceId}/inbound/media/upload`,
					upload.body,
					upload.contentType,
				);
				ids.push((response.body as { id: string }).id);
			}
			expect(await Promise.all(ids.map(async (id) => (await env.getMedia(id)).status))).toEqual([
				410, 200, 200,
			]);
			expect(env.sandbox.core.media.size).toEqual({ files: 2, bytes: 2_000 });

			const before = env.sandbox.store.all('messages').length;
			const tooLarge = encodeMultipart(
				{ to: '+14155550198', mediaType: 'document' },
				{ data: randomBytes(2_001), fileName: 'big.bin', mimeType: 'application/octet-stream' },
			);
			const refused = await env.post(
				`/api/v1/instances/${env.instanceId}/messages/media/upload`,
				tooLarge.body,
				tooLarge.contentType,
			);
			expect(refused.status).toBe(413);
			expect(env.sandbox.store.all('messages')).toHaveLength(before);
		} finally {
			await env.sandbox.close();
		}
	});
});
