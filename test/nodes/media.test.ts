/**
 * Message → Download Media and Send Media's file source, run as real workflows through n8n-core: against the
 * sandbox (the file in the output's binary field has the SHA-256 of what the contact sent, with the message's
 * JSON beside it), through nock (the exact request, and bytes that are not UTF-8 arriving intact), and as an AI
 * agent's tool (no binary: the message and its file's description; Send Media takes a URL).
 */
import { createHash, randomBytes } from 'node:crypto';
import nock from 'nock';
import { NodeHelpers, type IDataObject, type INodeType } from 'n8n-workflow';

import { sampleFile } from '../../sandbox/files/samples';
import { loadPackage, runNode, type WorkflowResult } from '../../dev/harness';
import { raw } from '../support/sandbox';
import { BASE, KEY, mockService, nockOnly } from '../support/client';
import {
	byId,
	expectNoSecrets,
	multichannelNode,
	NODE_NAME,
	NODE_TYPE,
	registerToolVariant,
	startService,
	useResource,
} from '../support/nodes';

afterAll(() => nock.restore());

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const TOOL_TYPE = `${NODE_TYPE}Tool`;

/** The bytes of a binary field of the first output item (n8n keeps them base64 in memory here). */
function fileOf(result: WorkflowResult, property = 'data') {
	const binary = result.output(NODE_NAME)[0]?.binary?.[property];
	if (!binary) throw new Error(`No binary field "${property}" in the output`);
	return { ...binary, bytes: Buffer.from(binary.data, 'base64') };
}

describe('Download Media against the sandbox', () => {
	const suite = useResource('message', { instance: 'Media' });

	const inboundSample = async (sample: 'image' | 'voice' | 'pdf', from = '+14155550181') => {
		const response = await raw(
			suite.service.sandbox.baseUrl,
			'POST',
			`/sandbox/instances/${suite.instance.id}/inbound/media`,
			{ key: suite.service.apiKey, body: { from, sample, caption: 'see attached' } },
		);
		expect(response.status).toBe(201);
		return response.body as { id: string; instanceId: string };
	};
	const download = (items: IDataObject[], parameters: IDataObject = {}) =>
		suite.run(
			{
				operation: 'downloadMedia',
				instanceId: byId('={{ $json.instanceId }}'),
				messageId: '={{ $json.id }}',
				...parameters,
			},
			items,
		);

	test('received files (PDF, voice note) come out as binary with the message beside them, byte for byte', async () => {
		const pdf = await inboundSample('pdf');
		const voice = await inboundSample('voice');

		const result = await download([pdf, voice].map(({ id, instanceId }) => ({ id, instanceId })));

		expect(result.error).toBeUndefined();
		const output = result.output(NODE_NAME);
		expect(output.map((item) => [item.json.id, item.json.type, item.pairedItem])).toEqual([
			[pdf.id, 'document', { item: 0 }],
			[voice.id, 'voice', { item: 1 }],
		]);
		for (const [index, sample] of (['pdf', 'voice'] as const).entries()) {
			const expected = sampleFile(sample);
			const binary = output[index].binary?.data;
			expect(binary).toMatchObject({ fileName: expected.fileName, mimeType: expected.mimeType });
			expect(sha256(Buffer.from(binary?.data ?? '', 'base64'))).toBe(sha256(expected.data));
			// The message's JSON names the same file as the sandbox keeps.
			expect(output[index].json.media).toEqual(
				suite.service.sandbox.store.get('messages', output[index].json.id as string)?.media,
			);
		}
		expect(fileOf(result).fileExtension).toBe('pdf');
		expectNoSecrets(result, [suite.service.apiKey]);
	});

	test('a sent upload downloads again into the field chosen', async () => {
		const data = randomBytes(10_000);
		const sent = await suite.service.client.messages.sendMediaUpload({
			instanceId: suite.instance.id,
			body: { to: '+14155550182', mediaType: 'document' },
			file: { data, fileName: 'report.bin', mimeType: 'application/octet-stream' },
		});

		const result = await download([{ id: sent.id, instanceId: suite.instance.id }], {
			binaryPropertyName: 'attachment',
		});

		expect(result.error).toBeUndefined();
		const file = fileOf(result, 'attachment');
		expect(sha256(file.bytes)).toBe(sha256(data));
		expect(file.fileName).toBe('report.bin');
	});

	test('a message without a file stops with an error naming the message and the item', async () => {
		const text = await suite.service.inbound(suite.instance.id, '+14155550183', 'just text');

		const result = await download([{ id: text.id, instanceId: suite.instance.id }]);

		expect(result.error?.message).toBe(
			`Message ${text.id} has no file to download: it is a text message without media [item 0]`,
		);
	});

	test('a file the service no longer keeps (410) says so, and Continue On Fail carries on', async () => {
		const limited = await startService({ media: { maxTotalBytes: 1 } });
		try {
			const contact = await limited.connectedInstance('Limited');
			const pdf = (
				await raw(
					limited.sandbox.baseUrl,
					'POST',
					`/sandbox/instances/${contact.id}/inbound/media`,
					{
						key: limited.apiKey,
						body: { from: '+14155550184', sample: 'pdf' },
					},
				)
			).body as { id: string };

			const result = await runNode(
				multichannelNode(
					'message',
					{ operation: 'downloadMedia', instanceId: byId(contact.id), messageId: pdf.id },
					{ onError: 'continueRegularOutput' },
				),
				{ credentials: limited.credentials },
			);

			expect(result.error).toBeUndefined();
			expect(result.json(NODE_NAME)[0].error).toMatch(
				/^The message is no longer available \[item 0\]: The file of message msg_\w+ is no longer kept/,
			);
		} finally {
			await limited.close();
		}
	});

	test('as an AI agent’s tool: the message and its file’s description, no binary (n8n drops it)', async () => {
		await registerToolVariant();
		const pdf = await inboundSample('pdf');

		const result = await suite.run(
			{ operation: 'downloadMedia', instanceId: byId(suite.instance.id), messageId: pdf.id },
			undefined,
			{ type: TOOL_TYPE },
		);

		expect(result.error).toBeUndefined();
		const [item] = result.output(NODE_NAME);
		expect(item.binary).toBeUndefined();
		expect(item.json).toMatchObject({
			id: pdf.id,
			media: { mimeType: 'application/pdf', sha256: sha256(sampleFile('pdf').data) },
			file: 'AI agents receive no files (binary data) from tools in n8n.',
		});
	});
});

describe('media operations as an AI agent’s tool', () => {
	const parameters = async (type: 'node' | 'tool', operation: string) => {
		const nodeType =
			type === 'tool'
				? (await registerToolVariant()).nodeType
				: ((await loadPackage()).nodeTypes[NODE_TYPE] as INodeType);
		return NodeHelpers.getNodeParameters(
			nodeType.description.properties,
			{ resource: 'message', operation },
			true,
			false,
			null,
			nodeType.description,
		) as IDataObject;
	};

	test('Send Media defaults to a URL as a tool, to binary data in a workflow', async () => {
		expect(await parameters('node', 'sendMedia')).toMatchObject({ source: 'binary' });
		const asTool = await parameters('tool', 'sendMedia');
		expect(asTool).toMatchObject({ source: 'url' });
		expect(asTool).not.toHaveProperty('binaryPropertyName');
	});

	test('Download Media has no output field as a tool, and says why', async () => {
		expect(await parameters('node', 'downloadMedia')).toMatchObject({ binaryPropertyName: 'data' });
		expect(await parameters('tool', 'downloadMedia')).not.toHaveProperty('binaryPropertyName');
	});
});

describe('Download Media: the exact exchange', () => {
	const credentials = { multichannelApi: { baseUrl: BASE, apiKey: KEY } };
	nockOnly();

	test('GET /api/v1/messages/{id}/media with the key, any type accepted; bytes that are not UTF-8 arrive intact', async () => {
		// Every byte value, twice: text decoding anywhere on the way would change some of them.
		const data = Buffer.concat([
			Buffer.from(Array.from({ length: 256 }, (_, byte) => byte)),
			randomBytes(256),
		]);
		const media = {
			id: 'med_1',
			mimeType: 'image/jpeg',
			fileName: null,
			size: data.length,
			sha256: sha256(data),
		};
		const seen: IDataObject[] = [];
		mockService()
			.get('/api/v1/instances/inst_1/messages/msg_1')
			.reply(200, { id: 'msg_1', type: 'image', direction: 'inbound', media })
			.get('/api/v1/messages/msg_1/media')
			.reply(function () {
				seen.push(this.req.headers);
				return [
					200,
					data,
					{
						'Content-Type': 'image/jpeg',
						'Content-Length': String(data.length),
						'Content-Disposition': 'attachment',
					},
				];
			});

		const result = await runNode(
			multichannelNode('message', {
				operation: 'downloadMedia',
				instanceId: byId('inst_1'),
				messageId: 'msg_1',
			}),
			{ credentials },
		);

		expect(result.error).toBeUndefined();
		expect(seen).toEqual([
			expect.objectContaining({ authorization: `Bearer ${KEY}`, accept: '*/*' }),
		]);
		const file = fileOf(result);
		expect(file.bytes.equals(data)).toBe(true);
		// No name from the service: one made of the message id and the type.
		expect(file).toMatchObject({ fileName: 'msg_1.jpg', mimeType: 'image/jpeg' });
	});

	test('a file that does not match the SHA-256 its message names is refused, never attached', async () => {
		mockService()
			.get('/api/v1/instances/inst_1/messages/msg_2')
			.reply(200, {
				id: 'msg_2',
				media: {
					id: 'med_2',
					mimeType: 'application/pdf',
					size: 4,
					sha256: sha256(Buffer.from('%PDF')),
				},
			})
			.get('/api/v1/messages/msg_2/media')
			.reply(200, Buffer.from('%PD'), { 'Content-Type': 'application/pdf' });

		const result = await runNode(
			multichannelNode('message', {
				operation: 'downloadMedia',
				instanceId: byId('inst_1'),
				messageId: 'msg_2',
			}),
			{ credentials },
		);

		expect(result.error?.message).toBe(
			'The Multichannel service sent an answer the node cannot read',
		);
		expect(result.error?.description).toMatch(
			/^The file of message msg_2 arrived damaged: 3 bytes/,
		);
	});
});
