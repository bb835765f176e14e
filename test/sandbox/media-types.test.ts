import { request } from 'undici';

import { encodeMultipart, RequestValidationError } from '../../src/client';
import type { Sandbox } from '../../sandbox/server';
import {
	clientsFor,
	connectedInstance,
	raw,
	startTestSandbox,
	type SandboxKeys,
} from '../support/sandbox';

/**
 * A file's media type goes out again as a download's Content-Type, its name into Content-Disposition: both
 * are checked where they come in (the JSON `mimeType` of a send by URL, the Content-Type and file name of an
 * uploaded part), by the contract's schemas, in the sandbox and in the client, naming the field. A CRLF or an
 * emoji there once made every later download answer 500; 20 KB ones, headers a client could not read.
 */

const BAD_MIME_TYPES: Array<[string, string]> = [
	['with a CRLF', 'image/png\r\nX-Injected: 1'],
	['with an emoji', 'image/😀'],
	['without a subtype', 'image'],
	['of 20 KB', `image/${'x'.repeat(20_000)}`],
];

describe('media types and file names', () => {
	let sandbox: Sandbox;
	let keys: SandboxKeys;
	let instanceId: string;
	beforeAll(async () => {
		// Files by URL come from a loopback port here (refused by default: the outbound policy).
		sandbox = await startTestSandbox({ rateLimit: false, outbound: { mediaFromLoopback: true } });
		keys = sandbox.keys as SandboxKeys;
		instanceId = (await connectedInstance(sandbox, 'Types', '+14155550160')).id;
	});
	afterAll(async () => await sandbox.close());

	/** Send Media by URL, as raw JSON (the client would refuse some of these bodies). */
	const sendByUrl = (fields: Record<string, string>) =>
		raw(sandbox.baseUrl, 'POST', `/api/v1/instances/${instanceId}/messages/media`, {
			key: keys.workspace,
			body: { to: '+14155550161', mediaType: 'image', url: 'http://127.0.0.1:9/a.png', ...fields },
		});

	const upload = async (part: { fileName: string; mimeType: string }) => {
		// Encoded by hand where the client would refuse: the part's header written as given.
		const { body, contentType } = encodeMultipart(
			{ to: '+14155550161', mediaType: 'document' },
			{ data: Buffer.from('bytes'), fileName: 'file.bin', mimeType: 'application/x-placeholder' },
		);
		const text = body
			.toString('latin1')
			.replace('filename="file.bin"', `filename="${part.fileName}"`)
			.replace('Content-Type: application/x-placeholder', `Content-Type: ${part.mimeType}`);
		const response = await request(
			`${sandbox.baseUrl}/api/v1/instances/${instanceId}/messages/media/upload`,
			{
				method: 'POST',
				headers: { authorization: `Bearer ${keys.workspace}`, 'content-type': contentType },
				body: Buffer.from(text, 'latin1'),
			},
		);
		return { status: response.statusCode, body: (await response.body.json()) as unknown };
	};

	it.each(BAD_MIME_TYPES)(
		'refuses a mimeType %s in a send by URL, naming body.mimeType',
		async (_label, mimeType) => {
			const sent = await sendByUrl({ mimeType });
			expect(sent.status).toBe(400);
			expect(sent.body).toMatchObject({
				error: {
					code: 'validation_failed',
					details: expect.arrayContaining([expect.objectContaining({ field: 'body.mimeType' })]),
				},
			});
		},
	);

	it('refuses an uploaded part whose Content-Type is not a media type, or whose file name is too long', async () => {
		const emoji = await upload({ fileName: 'a.bin', mimeType: 'image/😀' });
		expect(emoji.status).toBe(400);
		expect(JSON.stringify(emoji.body)).toContain('body.file.mimeType');
		const long = await upload({ fileName: `${'n'.repeat(300)}.bin`, mimeType: 'image/png' });
		expect(long.status).toBe(400);
		expect(JSON.stringify(long.body)).toContain('body.file.fileName');
		expect((await sendByUrl({ fileName: 'n'.repeat(256) })).status).toBe(400);
	});

	it('keeps a valid media type with parameters and serves it back as the Content-Type', async () => {
		const sent = await upload({ fileName: 'note.txt', mimeType: 'text/plain' });
		expect(sent.status).toBe(201);
		const messageId = (sent.body as { id: string }).id;
		const download = await request(`${sandbox.baseUrl}/api/v1/messages/${messageId}/media`, {
			headers: { authorization: `Bearer ${keys.workspace}` },
		});
		expect(download.statusCode).toBe(200);
		expect(download.headers['content-type']).toBe('text/plain');
		await download.body.dump();
		const byUrl = await sendByUrl({
			mediaType: 'document',
			url: 'http://127.0.0.1:9/a.txt',
			mimeType: 'text/plain; charset="utf-8"',
		});
		expect(byUrl.status).toBe(201);
	});

	it('has the client refuse a bad type or name before sending, naming the field', async () => {
		const client = clientsFor(sandbox.baseUrl, keys).workspace;
		const sent = client.messages.sendMediaUpload({
			instanceId,
			body: { to: '+14155550161', mediaType: 'document' },
			file: { data: Buffer.from('x'), fileName: 'a.bin', mimeType: 'text/plain\r\nX-Injected: 1' },
		});
		await expect(sent).rejects.toBeInstanceOf(RequestValidationError);
		await expect(sent).rejects.toMatchObject({
			issues: [expect.objectContaining({ field: 'file.mimeType' })],
		});
		await expect(
			client.messages.sendMedia({
				instanceId,
				body: {
					to: '+14155550161',
					mediaType: 'image',
					url: 'http://127.0.0.1:9/a',
					mimeType: 'image/😀',
				},
			}),
		).rejects.toMatchObject({ issues: [expect.objectContaining({ field: 'body.mimeType' })] });
	});
});
