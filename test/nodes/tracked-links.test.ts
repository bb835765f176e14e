/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- made-up keys the tests look for in outputs */
/**
 * Track Links on Send Text and Send Media, run as real workflows through n8n-core against the sandbox (the
 * output, and the short links the sandbox then holds), plus nock tests pinning `trackLinks` on the wire.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../dev/harness';
import { nockOnly } from '../support/client';
import { clientsFor } from '../support/sandbox';
import {
	byId,
	expectNoSecrets,
	multichannelNode,
	NODE_NAME,
	runWithFiles,
	startService,
	type TestService,
} from '../support/nodes';

// nock patches Node's http for the whole worker: undone when this file ends (test/nodes/quiet.test.ts).
afterAll(() => nock.restore());

interface TrackedLink {
	url: string;
	shortUrl: string;
	linkId: string;
}

describe('Track Links against the sandbox', () => {
	let service: TestService;
	let instanceId: string;
	let shortLinks: ReturnType<typeof clientsFor>['shortLink'];
	beforeAll(async () => {
		service = await startService();
		instanceId = (await service.connectedInstance('Campaign')).id;
		shortLinks = clientsFor(
			service.sandbox.baseUrl,
			service.sandbox.keys as { workspace: string; shortLink: string; automation: string },
		).shortLink;
	});
	afterAll(async () => await service.close());

	const messageNode = (parameters: IDataObject) =>
		multichannelNode('message', { instanceId: byId(instanceId), ...parameters });

	/** The short links of the workspace's short-link surface that carry this message's id as a tag. */
	const linksOf = async (messageId: string) =>
		await shortLinks.links.list.all({ query: { tag: messageId } });

	test('Send Text: each recipient gets short links of their own; the output shows the text as sent', async () => {
		const result = await runNode(
			messageNode({
				operation: 'sendText',
				to: '={{ $json.phone }}',
				text: '=Hi {{ $json.name }}, our sale: https://shop.example/sale?c=spring.',
				options: { trackLinks: true },
			}),
			{
				credentials: service.credentials,
				items: [
					{ phone: '+14155550161', name: 'Ana' },
					{ phone: '+14155550162', name: 'Ben' },
				],
			},
		);

		expect(result.error).toBeUndefined();
		const [ana, ben] = result.json(NODE_NAME);
		const [anaLink] = ana.trackedLinks as TrackedLink[];
		const [benLink] = ben.trackedLinks as TrackedLink[];
		expect(anaLink.url).toBe('https://shop.example/sale?c=spring');
		expect(anaLink.shortUrl).not.toBe(benLink.shortUrl);
		expect(ana.content).toEqual({ text: `Hi Ana, our sale: ${anaLink.shortUrl}.` });
		expect(service.sandbox.store.get('messages', ana.id as string)?.content).toEqual({
			text: `Hi Ana, our sale: ${anaLink.shortUrl}.`,
		});

		// The sandbox's state: one link per message, tagged with it, naming the recipient.
		for (const [message, phone] of [
			[ana, '+14155550161'],
			[ben, '+14155550162'],
		] as const) {
			const links = await linksOf(message.id as string);
			expect(links).toEqual([
				expect.objectContaining({
					id: (message.trackedLinks as TrackedLink[])[0].linkId,
					url: 'https://shop.example/sale?c=spring',
					tags: [message.id],
					messageId: message.id,
					recipient: phone,
				}),
			]);
		}
		expectNoSecrets(result, [service.apiKey]);
	});

	test('Send Text without the option sends the URLs as written, and makes no link', async () => {
		const result = await runNode(
			messageNode({ operation: 'sendText', to: '+14155550163', text: 'https://plain.example' }),
			{ credentials: service.credentials },
		);

		const [message] = result.json(NODE_NAME);
		expect(message.content).toEqual({ text: 'https://plain.example' });
		expect(message.trackedLinks).toBeUndefined();
		expect(await linksOf(message.id as string)).toEqual([]);
	});

	test('Send Media tracks the caption, from a URL and from binary data', async () => {
		const byUrl = await runNode(
			messageNode({
				operation: 'sendMedia',
				to: '+14155550164',
				source: 'url',
				url: 'https://cdn.example/menu.png',
				caption: 'Order at https://order.example/now!',
				options: { trackLinks: true },
			}),
			{ credentials: service.credentials },
		);
		const [sentByUrl] = byUrl.json(NODE_NAME);
		const [menuLink] = sentByUrl.trackedLinks as TrackedLink[];
		expect(sentByUrl.content).toMatchObject({
			url: 'https://cdn.example/menu.png',
			caption: `Order at ${menuLink.shortUrl}!`,
		});
		expect(await linksOf(sentByUrl.id as string)).toEqual([
			expect.objectContaining({ url: 'https://order.example/now', recipient: '+14155550164' }),
		]);

		const uploaded = await runWithFiles(
			messageNode({
				operation: 'sendMedia',
				to: '+14155550165',
				caption: 'Terms: https://terms.example/v2',
				options: { trackLinks: true },
			}),
			[{ data: Buffer.from('%PDF-1.4'), fileName: 'terms.pdf', mimeType: 'application/pdf' }],
			service.credentials,
		);
		const [sentFile] = uploaded.json(NODE_NAME);
		const [termsLink] = sentFile.trackedLinks as TrackedLink[];
		expect(sentFile.content).toMatchObject({ caption: `Terms: ${termsLink.shortUrl}` });
		expect(await linksOf(sentFile.id as string)).toEqual([
			expect.objectContaining({ url: 'https://terms.example/v2', recipient: '+14155550165' }),
		]);
	});

	test('Send Buttons tracks the URLs of its body', async () => {
		const result = await runNode(
			messageNode({
				operation: 'sendButtons',
				to: '+14155550166',
				text: 'Coming to https://venue.example/hall?',
				buttonsInput: 'fields',
				buttons: { button: [{ id: 'yes', title: 'Yes' }] },
				options: { trackLinks: true },
			}),
			{ credentials: service.credentials },
		);

		expect(result.error).toBeUndefined();
		const [message] = result.json(NODE_NAME);
		const [venue] = message.trackedLinks as TrackedLink[];
		expect(message.content).toMatchObject({ text: `Coming to ${venue.shortUrl}?` });
		expect(await linksOf(message.id as string)).toEqual([
			expect.objectContaining({ url: 'https://venue.example/hall', recipient: '+14155550166' }),
		]);
	});
});

describe('Track Links on the wire (nock)', () => {
	const BASE_URL = 'http://127.0.0.1:8790';
	const API_KEY = 'mcw_test_tracked_9012';
	const credentials = { multichannelApi: { baseUrl: BASE_URL, apiKey: API_KEY } };
	const wireNode = (parameters: IDataObject) =>
		multichannelNode('message', { instanceId: byId('inst_1'), ...parameters });
	const answer = { id: 'msg_1', instanceId: 'inst_1', status: 'sent' };

	nockOnly();

	/** Runs the node once against a recorded endpoint; the request bodies it sent. */
	async function bodiesSent(path: string, parameters: IDataObject): Promise<unknown[]> {
		const bodies: unknown[] = [];
		nock(BASE_URL)
			.post(`/api/v1/instances/inst_1/messages/${path}`)
			.reply((_uri, body) => {
				bodies.push(body);
				return [201, answer];
			});
		const result = await runNode(wireNode(parameters), { credentials });
		expect(result.error).toBeUndefined();
		return bodies;
	}

	test('Send Text: trackLinks: true in the JSON body only when the option is on', async () => {
		const text = { operation: 'sendText', to: '+14155550123', text: 'See https://a.example' };
		expect(await bodiesSent('text', { ...text, options: { trackLinks: true } })).toEqual([
			{ to: '+14155550123', text: 'See https://a.example', trackLinks: true },
		]);
		expect(await bodiesSent('text', { ...text, options: { trackLinks: false } })).toEqual([
			{ to: '+14155550123', text: 'See https://a.example' },
		]);
	});

	test('Send Media by URL: trackLinks: true beside the caption', async () => {
		expect(
			await bodiesSent('media', {
				operation: 'sendMedia',
				to: '+14155550123',
				source: 'url',
				url: 'https://cdn.example/a.png',
				caption: 'https://b.example',
				options: { trackLinks: true },
			}),
		).toEqual([
			{
				to: '+14155550123',
				caption: 'https://b.example',
				url: 'https://cdn.example/a.png',
				mediaType: 'image',
				trackLinks: true,
			},
		]);
	});

	test('Send Media upload: a trackLinks form field "true"', async () => {
		const bodies: string[] = [];
		nock(BASE_URL)
			.post('/api/v1/instances/inst_1/messages/media/upload')
			.reply((_uri, body) => {
				bodies.push(String(body));
				return [201, answer];
			});
		const result = await runWithFiles(
			wireNode({
				operation: 'sendMedia',
				to: '+14155550123',
				caption: 'https://b.example',
				options: { trackLinks: true },
			}),
			[{ data: Buffer.from('%PDF-1.4'), fileName: 'a.pdf', mimeType: 'application/pdf' }],
			credentials,
		);
		expect(result.error).toBeUndefined();
		expect(bodies).toHaveLength(1);
		expect(bodies[0]).toMatch(/Content-Disposition: form-data; name="trackLinks"\r\n\r\ntrue\r\n/);
		expect(bodies[0]).toMatch(
			/Content-Disposition: form-data; name="caption"\r\n\r\nhttps:\/\/b\.example\r\n/,
		);
	});
});
