/* eslint-disable @n8n/community-nodes/no-restricted-imports -- tests run in plain Node, never inside n8n */
/**
 * Mentions, voice notes and stickers in the sandbox (issue 36): a mention must be shown in the text and be in
 * the chat; "everyone" is for groups; a received message says whom it mentions and whether it mentions the
 * instance; a voice note must be OGG/Opus and a sticker a WebP within its limit, by upload or by URL, and both are
 * received with their own kind; mentions survive a restart with the messages that carry them.
 */
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { request } from 'undici';

import { encodeMultipart } from '../../src/client';
import { STICKER } from '../../src/client/resources/voice-sticker';
import { sampleFile } from '../../sandbox/files/samples';
import { startSandbox } from '../../sandbox/server';
import { clientsFor, connectedInstance, raw, startTestSandbox, waitFor } from '../support/sandbox';

const OWN = '+14155550170';
const MEMBER = '+14155550171';
const STRANGER = '+14155550179';

describe('mentions, voice notes and stickers in the sandbox', () => {
	let sandbox: Awaited<ReturnType<typeof startTestSandbox>>;
	let keys: { workspace: string; shortLink: string; automation: string };
	let instanceId: string;
	let groupId: string;
	let files: Server;
	let filesUrl: string;

	beforeAll(async () => {
		sandbox = await startTestSandbox({
			rateLimit: false,
			outbound: { mediaFromLoopback: true },
		});
		keys = sandbox.keys as typeof keys;
		instanceId = (await connectedInstance(sandbox, 'Mentions', OWN)).id;
		const client = clientsFor(sandbox.baseUrl, keys).workspace;
		groupId = (
			await client.groups.create({ instanceId, body: { subject: 'Team', participants: [MEMBER] } })
		).id;
		// A file server on loopback: /voice.ogg answers the Ogg/Opus sample, /song.ogg an MP3 under an .ogg name.
		files = createServer((request, response) => {
			const file =
				request.url === '/voice.ogg'
					? sampleFile('voice').data
					: Buffer.from('ID3\x03\x00\x00\x00 not an ogg stream', 'latin1');
			response.writeHead(200, { 'content-type': 'audio/ogg' }).end(file);
		});
		await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
		filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
	});
	afterAll(async () => {
		await sandbox?.close();
		await new Promise((resolve) => files?.close(resolve));
	});

	const post = (path: string, body: unknown) =>
		raw(sandbox.baseUrl, 'POST', `/api/v1/instances/${instanceId}${path}`, {
			key: keys.workspace,
			body,
		});
	const upload = (
		fields: Record<string, unknown>,
		file: { data: Buffer; mimeType: string; fileName: string },
		path = `/api/v1/instances/${instanceId}/messages/media/upload`,
	) => multipart(sandbox.baseUrl, keys.workspace, path, fields, file);

	test('a mention is kept when the text shows it and the person is in the chat', async () => {
		const sent = await post('/messages/text', {
			to: groupId,
			text: 'Please check, @14155550171',
			mentions: [MEMBER],
		});
		expect(sent.status).toBe(201);
		expect(sent.body).toMatchObject({ mentions: [MEMBER] });
		const everyone = await post('/messages/text', {
			to: groupId,
			text: 'All hands',
			mentionEveryone: true,
		});
		expect(everyone.body).toMatchObject({ mentionEveryone: true });
	});

	test('a mention the text does not show, someone outside the chat, or everyone in a 1:1 chat is refused, naming it', async () => {
		const hidden = await post('/messages/text', {
			to: groupId,
			text: 'Please check',
			mentions: [MEMBER],
		});
		expect(hidden.status).toBe(400);
		expect(JSON.stringify(hidden.body)).toContain('body.mentions.0');
		expect(JSON.stringify(hidden.body)).toContain('@14155550171');

		const outside = await post('/messages/text', {
			to: groupId,
			text: '@14155550171 and @14155550179',
			mentions: [MEMBER, STRANGER],
		});
		expect(outside.status).toBe(400);
		expect(outside.body).toMatchObject({
			error: {
				code: 'mention_not_in_chat',
				details: [{ field: 'body.mentions.1', message: `${STRANGER} is not in this chat` }],
			},
		});

		const person = await post('/messages/text', { to: MEMBER, text: 'Hi', mentionEveryone: true });
		expect(person.status).toBe(400);
		expect(JSON.stringify(person.body)).toContain('body.mentionEveryone');

		const caption = await post('/messages/media', {
			to: groupId,
			mediaType: 'image',
			url: `${filesUrl}/photo.png`,
			caption: 'Look',
			mentions: [MEMBER],
		});
		expect(caption.status).toBe(400);
		expect(JSON.stringify(caption.body)).toContain('body.mentions.0');
	});

	test('a received message carries its mentions and whether it mentions the instance', async () => {
		const inbound = (body: Record<string, unknown>) =>
			raw(sandbox.baseUrl, 'POST', `/sandbox/instances/${instanceId}/inbound`, {
				key: keys.workspace,
				body: { from: MEMBER, groupId, ...body },
			});
		const me = await inbound({ text: '@14155550170 can you?', mentions: [OWN] });
		expect(me.body).toMatchObject({ mentions: [OWN], mentionsMe: true });
		const other = await inbound({ text: 'nothing for you' });
		expect(other.body).toMatchObject({ mentions: [], mentionsMe: false });
		const all = await inbound({ text: 'everyone!', mentionEveryone: true });
		expect(all.body).toMatchObject({ mentionEveryone: true, mentionsMe: true });
		const event = sandbox.events.find(
			(candidate) => (candidate.data as { id?: string }).id === (me.body as { id: string }).id,
		);
		expect(event?.data).toMatchObject({ mentions: [OWN], mentionsMe: true });

		// As with a send, a mention the text does not show is refused, naming it.
		const unshown = await inbound({ text: 'can you?', mentions: [OWN] });
		expect(unshown.status).toBe(400);
		expect(unshown.body).toMatchObject({
			error: { code: 'validation_failed', details: [{ field: 'body.mentions.0' }] },
		});
	});

	test('a voice note must be OGG/Opus: other audio is refused with the reason and what to do', async () => {
		const voice = sampleFile('voice');
		const sent = await upload({ to: MEMBER, mediaType: 'voice' }, { ...voice, fileName: 'v.ogg' });
		expect(sent.status).toBe(201);
		expect(sent.body).toMatchObject({
			type: 'voice',
			media: { mimeType: expect.stringMatching(/^audio\/ogg/) },
		});

		const mp3 = await upload(
			{ to: MEMBER, mediaType: 'voice' },
			{ data: Buffer.from('ID3 not opus'), mimeType: 'audio/mpeg', fileName: 'song.mp3' },
		);
		expect(mp3.status).toBe(400);
		expect(mp3.body).toMatchObject({
			error: { code: 'not_a_voice_note', details: [{ field: 'file' }] },
		});
		expect(JSON.stringify(mp3.body)).toContain('audio/mpeg');
		expect(JSON.stringify(mp3.body)).toContain('libopus');

		const withCaption = await upload(
			{ to: MEMBER, mediaType: 'voice', caption: 'hi' },
			{ ...voice, fileName: 'v.ogg' },
		);
		expect(withCaption.status).toBe(400);
		expect(JSON.stringify(withCaption.body)).toContain('body.caption');

		// By URL the bytes tell only once fetched: an MP3 behind an .ogg URL fails the message, saying why.
		const byUrl = await post('/messages/media', {
			to: MEMBER,
			mediaType: 'voice',
			url: `${filesUrl}/song.ogg`,
		});
		expect(byUrl.status).toBe(201);
		const messageId = (byUrl.body as { id: string }).id;
		const failed = await waitFor(
			() =>
				sandbox.events.find(
					(event) =>
						event.type === 'message.failed' && (event.data as { id: string }).id === messageId,
				),
			30_000,
			'message.failed of the MP3 voice note',
		);
		expect(failed.data).toMatchObject({ error: { code: 'not_a_voice_note' } });
		const good = await post('/messages/media', {
			to: MEMBER,
			mediaType: 'voice',
			url: `${filesUrl}/voice.ogg`,
		});
		const goodId = (good.body as { id: string }).id;
		const delivered = await waitFor(
			() =>
				sandbox.events.find(
					(event) =>
						event.type === 'message.delivered' && (event.data as { id: string }).id === goodId,
				),
			30_000,
			'the voice note by URL delivered',
		);
		expect(delivered.data).toMatchObject({
			type: 'voice',
			media: { size: sampleFile('voice').data.length },
		});
		const stated = await post('/messages/media', {
			to: MEMBER,
			mediaType: 'voice',
			url: `${filesUrl}/x`,
			mimeType: 'audio/mpeg',
		});
		expect(stated.status).toBe(400);
		expect(JSON.stringify(stated.body)).toContain('body.mimeType');
	});

	test('a sticker must be a WebP within its own limit', async () => {
		const sticker = sampleFile('sticker');
		const sent = await upload(
			{ to: MEMBER, mediaType: 'sticker' },
			{ ...sticker, fileName: 's.webp' },
		);
		expect(sent.status).toBe(201);
		expect(sent.body).toMatchObject({ type: 'sticker' });
		const png = sampleFile('image');
		const notWebp = await upload(
			{ to: MEMBER, mediaType: 'sticker' },
			{ ...png, fileName: 'p.png' },
		);
		expect(notWebp.status).toBe(400);
		expect(notWebp.body).toMatchObject({ error: { code: 'not_a_sticker' } });
		const large = Buffer.concat([sticker.data, Buffer.alloc(STICKER.maxBytes)]);
		const tooLarge = await upload(
			{ to: MEMBER, mediaType: 'sticker' },
			{ data: large, mimeType: 'image/webp', fileName: 'big.webp' },
		);
		expect(tooLarge.status).toBe(413);
		expect(tooLarge.body).toMatchObject({ error: { code: 'sticker_too_large' } });
	});

	test('received voice notes and stickers have their own kind', async () => {
		for (const sample of ['voice', 'sticker'] as const) {
			const received = await raw(
				sandbox.baseUrl,
				'POST',
				`/sandbox/instances/${instanceId}/inbound/media`,
				{
					key: keys.workspace,
					body: { from: MEMBER, sample },
				},
			);
			expect(received.body).toMatchObject({ type: sample });
		}
		const refused = await upload(
			{ from: MEMBER, kind: 'voice' },
			{ data: Buffer.from('not opus'), mimeType: 'audio/mpeg', fileName: 'a.mp3' },
			`/sandbox/instances/${instanceId}/inbound/media/upload`,
		);
		expect(refused.status).toBe(400);
	});
});

test('mentions are kept across a restart with their messages', async () => {
	const dataFile = join(mkdtempSync(join(tmpdir(), 'mentions-')), 'state.json');
	const first = await startSandbox({ port: 0, dataFile, rateLimit: false });
	const keys = first.keys as { workspace: string; shortLink: string; automation: string };
	const instance = await connectedInstance(first, 'Kept', OWN);
	const sent = await raw(first.baseUrl, 'POST', `/api/v1/instances/${instance.id}/messages/text`, {
		key: keys.workspace,
		body: { to: MEMBER, text: 'Hi @14155550171', mentions: [MEMBER] },
	});
	await first.close();
	const second = await startSandbox({ port: 0, dataFile, rateLimit: false });
	try {
		const again = await raw(
			second.baseUrl,
			'GET',
			`/api/v1/instances/${instance.id}/messages/${(sent.body as { id: string }).id}`,
			{ key: keys.workspace },
		);
		expect(again.body).toMatchObject({ mentions: [MEMBER] });
	} finally {
		await second.close();
	}
});

/** A multipart upload as the client encodes it. */
async function multipart(
	baseUrl: string,
	key: string,
	path: string,
	fields: Record<string, unknown>,
	file: { data: Buffer; mimeType: string; fileName: string },
): Promise<{ status: number; body: unknown }> {
	const { body, contentType } = encodeMultipart(fields, file);
	const response = await request(`${baseUrl}${path}`, {
		method: 'POST',
		headers: { authorization: `Bearer ${key}`, 'content-type': contentType },
		body,
	});
	return { status: response.statusCode, body: await response.body.json() };
}
