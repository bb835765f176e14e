/**
 * Mentions, Send Voice Note and Send Sticker on the wire, with nock (issue 36): the exact JSON of a text with
 * mentions (the missing `@<number>` added, numbers in E.164), and the exact form of a voice note upload and of
 * a sticker by URL.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../dev/harness';
import { sampleFile } from '../../sandbox/files/samples';
import { nockOnly } from '../support/client';
import { byId, multichannelNode, NODE_NAME, runWithFiles } from '../support/nodes';

afterAll(() => nock.restore());

describe('mentions, voice notes and stickers on the wire (nock)', () => {
	const BASE_URL = 'http://127.0.0.1:8791';
	const credentials = { multichannelApi: { baseUrl: BASE_URL, apiKey: 'mcw_test_wire_mentions' } };
	const wireNode = (parameters: IDataObject) =>
		multichannelNode('message', { instanceId: byId('inst_1'), ...parameters });
	nockOnly();

	test('Send Text with mentions: E.164 numbers, the text showing each, mentionEveryone', async () => {
		const seen: unknown[] = [];
		nock(BASE_URL)
			.post('/api/v1/instances/inst_1/messages/text')
			.reply((_uri, body) => {
				seen.push(body);
				return [201, { id: 'msg_1', type: 'text', status: 'sent' }];
			});
		const result = await runNode(
			wireNode({
				operation: 'sendText',
				to: '120363000000000000@g.us',
				text: 'Hi @14155550123',
				options: {
					mentions: '+1 415 555 0123, 0044 20 7946 0958',
					mentionEveryone: true,
				},
			}),
			{ credentials },
		);
		expect(result.error).toBeUndefined();
		expect(seen).toEqual([
			{
				to: '120363000000000000@g.us',
				text: 'Hi @14155550123 @442079460958',
				mentions: ['+14155550123', '+442079460958'],
				mentionEveryone: true,
			},
		]);
	});

	test('Send Voice Note from a binary field: a multipart upload of mediaType voice, the file as it is', async () => {
		const voice = sampleFile('voice');
		let form = '';
		let contentType = '';
		nock(BASE_URL)
			.post('/api/v1/instances/inst_1/messages/media/upload')
			.reply(function (_uri, body) {
				contentType = String(this.req.headers['content-type']);
				form = Buffer.from(body as string, 'hex').toString('latin1');
				return [201, { id: 'msg_2', type: 'voice', status: 'sent' }];
			});
		const result = await runWithFiles(
			wireNode({ operation: 'sendVoiceNote', to: '+14155550123' }),
			[voice as never],
			credentials,
		);
		expect(result.error).toBeUndefined();
		expect(result.json(NODE_NAME)[0]).toMatchObject({ type: 'voice' });
		expect(contentType).toMatch(/^multipart\/form-data; boundary=/);
		const boundary = contentType.split('boundary=')[1];
		const parts = form.split(`--${boundary}`).slice(1, -1);
		expect(parts.map((part) => /name="([^"]+)"/.exec(part)?.[1])).toEqual([
			'to',
			'mediaType',
			'file',
		]);
		expect(parts[1]).toContain('\r\n\r\nvoice\r\n');
		expect(parts[2]).toContain(`filename="${voice.fileName}"`);
		expect(parts[2]).toContain(voice.data.toString('latin1'));
	});

	test('Send Sticker by URL: the exact JSON, mediaType sticker', async () => {
		const seen: unknown[] = [];
		nock(BASE_URL)
			.post('/api/v1/instances/inst_1/messages/media')
			.reply((_uri, body) => {
				seen.push(body);
				return [201, { id: 'msg_3', type: 'sticker', status: 'sent' }];
			});
		const result = await runNode(
			wireNode({
				operation: 'sendSticker',
				to: '+14155550123',
				source: 'url',
				url: 'https://example.com/thanks.webp',
			}),
			{ credentials },
		);
		expect(result.error).toBeUndefined();
		expect(seen).toEqual([
			{ to: '+14155550123', url: 'https://example.com/thanks.webp', mediaType: 'sticker' },
		]);
	});
});
