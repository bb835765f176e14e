/**
 * The Message resource of the Multichannel node, run as real workflows against the sandbox on loopback:
 * every operation, with the sandbox's resulting state. What goes on the wire is in message-wire.test.ts.
 */
import { createHash } from 'node:crypto';
import {
	NodeHelpers,
	type INodeParameters,
	type INodeProperties,
	type INodeType,
} from 'n8n-workflow';

import { loadPackage, runNode } from '../../dev/harness';
import {
	expectNoSecrets,
	failure,
	NODE_NAME,
	NODE_TYPE,
	runWithFiles,
	useResource,
} from '../support/nodes';

const suite = useResource('message', { instance: 'Messages' });
const { run } = suite;
const stored = (id: unknown) => suite.service.sandbox.store.get('messages', id as string);
const outboundCount = () =>
	suite.service.sandbox.store.all('messages', (message) => message.direction === 'outbound').length;

describe('Message sends against the sandbox', () => {
	test('Send Text: several items, numbers in any usual notation, all stored as sent, in order', async () => {
		const result = await run(
			{ operation: 'sendText', to: '={{ $json.phone }}', text: '=Hi {{ $json.name }}' },
			[
				{ phone: '+1 (415) 555-0101', name: 'Ana' },
				{ phone: '0044 20 7946 0958', name: 'Ben' },
				{ phone: '33.1.23.45.67.89', name: 'Chloé' },
			],
		);

		const output = result.output(NODE_NAME);
		expect(output.map((item) => [item.json.to, item.json.status, item.pairedItem])).toEqual([
			['+14155550101', 'sent', { item: 0 }],
			['+442079460958', 'sent', { item: 1 }],
			['+33123456789', 'sent', { item: 2 }],
		]);
		expect(output.map((item) => stored(item.json.id)?.content)).toEqual([
			{ text: 'Hi Ana' },
			{ text: 'Hi Ben' },
			{ text: 'Hi Chloé' },
		]);
		expectNoSecrets(result, [suite.service.apiKey]);
	});

	test('an impossible number stops the run before any request, naming the field and the item', async () => {
		const before = outboundCount();

		const result = await run({ operation: 'sendText', to: '={{ $json.phone }}', text: 'Hi' }, [
			{ phone: 'call me' },
		]);

		expect(result.error).toMatchObject({
			name: 'NodeOperationError',
			message: 'Invalid value for "To" [item 0]: "call me" is not a valid phone number',
			description: expect.stringContaining('+14155550123'),
		});
		expect(outboundCount()).toBe(before);
	});

	test('a person who hides their number: answered by @username and contact ID; an unknown @username sends nothing, naming To', async () => {
		const hidden = await suite.service.inbound(suite.instance.id, '@maria.lopez', 'Hi');
		const { from, chatId } = stored(hidden.id) as { from: string; chatId: string };
		const result = await run({ operation: 'sendText', to: '={{ $json.to }}', text: 'Hello' }, [
			{ to: '@Maria.Lopez' },
			{ to: from },
		]);
		expect(result.output(NODE_NAME).map((item) => stored(item.json.id)?.chatId)).toEqual([
			chatId,
			chatId,
		]);

		const before = outboundCount();
		const unknown = await run({ operation: 'sendText', to: '@nobody.here', text: 'Hi' });
		expect(failure(unknown)).toMatchObject({
			httpCode: '404',
			message: expect.stringMatching(
				/^No such contact on this instance \[item 0\]: "To": no contact @nobody\.here/,
			),
			description: expect.stringContaining('nothing was sent'),
		});
		expect(outboundCount()).toBe(before);

		// Text with an @ is a username: one that breaks the rule is told so, not "not a valid phone number".
		const malformed = await run(
			{ operation: 'sendText', to: '={{ $json.to }}', text: 'Hi' },
			[{ to: '@ma' }, { to: '@bad name' }],
			{ onError: 'continueRegularOutput' },
		);
		expect(malformed.output(NODE_NAME).map((item) => item.json.error)).toEqual([
			'Invalid value for "To" [item 0]: "@ma" is not a valid username: after the @ come 3 to 35 letters, digits, dots or underscores',
			'Invalid value for "To" [item 1]: "@bad name" is not a valid username: after the @ come 3 to 35 letters, digits, dots or underscores',
		]);
		expect(outboundCount()).toBe(before);
	});

	test('with continue on fail, a bad number fails its item only; the others are sent', async () => {
		const result = await run(
			{ operation: 'sendText', to: '={{ $json.phone }}', text: 'Hello' },
			[{ phone: '+14155550111' }, { phone: '+12' }, { phone: '+14155550112' }],
			{ onError: 'continueRegularOutput' },
		);

		const output = result.output(NODE_NAME);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(output[1].json.error).toBe(
			'Invalid value for "To" [item 1]: "+12" is not a valid phone number: it has 1 digit after +1 (United States and others), whose numbers have 7 or 10',
		);
		expect(stored(output[0].json.id)?.to).toBe('+14155550111');
		expect(stored(output[2].json.id)?.to).toBe('+14155550112');
	});

	test('running the same item again sends nothing twice (derived idempotency key); a key of its own too', async () => {
		const node = suite.node({ operation: 'sendText', to: '+14155550133', text: 'Only once' });
		const first = await runNode(node, { credentials: suite.service.credentials });
		const again = await runNode(node, { credentials: suite.service.credentials });

		expect(again.json(NODE_NAME)[0].id).toBe(first.json(NODE_NAME)[0].id);
		expect(
			suite.service.sandbox.store.all('messages', (message) => message.to === '+14155550133'),
		).toHaveLength(1);

		const keyed = (text: string) =>
			suite.node({
				operation: 'sendText',
				to: '+14155550134',
				text,
				options: { idempotencyKey: 'order-1042' },
			});
		const a = await runNode(keyed('Order 1042 shipped'), {
			credentials: suite.service.credentials,
		});
		const b = await runNode(keyed('Order 1042 shipped'), {
			credentials: suite.service.credentials,
		});
		expect(b.json(NODE_NAME)[0].id).toBe(a.json(NODE_NAME)[0].id);
	});

	test('Send Media shows the caption as a field of its own; under Options only where a workflow has one there', async () => {
		const { description } = (await loadPackage()).nodeTypes[NODE_TYPE] as INodeType;
		const sendMedia = description.properties.filter(
			(property) => property.displayOptions?.show?.operation?.[0] === 'sendMedia',
		);
		const caption = sendMedia.find((property) => property.name === 'caption');
		expect(caption).toMatchObject({ displayName: 'Caption', type: 'string', default: '' });
		expect(caption?.displayOptions?.show).toEqual({
			resource: ['message'],
			operation: ['sendMedia'],
		});
		const options = sendMedia.find((property) => property.name === 'options');
		const old = options?.options?.find((option) => option.name === 'caption') as INodeProperties;
		const shownWith = (values: INodeParameters) =>
			NodeHelpers.displayParameter(values, old, null, description);
		expect(shownWith({})).toBe(false);
		expect(shownWith({ caption: '' })).toBe(false);
		expect(shownWith({ caption: 'Logo' })).toBe(true);
	});

	test('Send Media sends the caption of its field', async () => {
		const result = await run({
			operation: 'sendMedia',
			to: '+14155550145',
			source: 'url',
			url: 'https://example.com/menu.pdf',
			caption: 'Our new menu',
		});

		expect(stored(result.json(NODE_NAME)[0].id)).toMatchObject({
			content: { caption: 'Our new menu' },
		});
	});

	// Saved before the caption had a field of its own: the caption under Options is still sent.
	test('Send Media from a binary property (the default) uploads the file', async () => {
		const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
		const pdf = Buffer.from('%PDF-1.4 brochure');

		const result = await runWithFiles(
			suite.node({
				operation: 'sendMedia',
				to: '={{ $json.phone }}',
				options: { caption: '={{ $json.caption }}' },
			}),
			[
				{
					json: { phone: '+14155550141', caption: 'Logo' },
					data: png,
					fileName: 'logo.png',
					mimeType: 'image/png',
				},
				{
					json: { phone: '+14155550142', caption: 'Brochure' },
					data: pdf,
					fileName: 'brochure.pdf',
					mimeType: 'application/pdf',
				},
			],
			suite.service.credentials,
		);

		const output = result.output(NODE_NAME);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(stored(output[0].json.id)).toMatchObject({
			type: 'image',
			to: '+14155550141',
			content: {
				mediaType: 'image',
				caption: 'Logo',
				fileName: 'logo.png',
				mimeType: 'image/png',
				size: png.length,
				sha256: createHash('sha256').update(png).digest('hex'),
			},
		});
		expect(stored(output[1].json.id)).toMatchObject({
			type: 'document',
			content: { fileName: 'brochure.pdf', mimeType: 'application/pdf', size: pdf.length },
		});
	});

	test('Send Media names the missing binary property as an input error', async () => {
		const result = await run({
			operation: 'sendMedia',
			to: '+14155550143',
			binaryPropertyName: 'file',
		});

		expect(result.error).toMatchObject({ name: 'NodeOperationError' });
		expect(result.error?.message).toMatch(/binary|file/i);
	});

	test('Send Media from a URL guesses the media type from the extension', async () => {
		const result = await run({
			operation: 'sendMedia',
			to: '+14155550144',
			source: 'url',
			url: 'https://example.com/clip.mp4',
		});

		expect(stored(result.json(NODE_NAME)[0].id)).toMatchObject({
			type: 'video',
			content: { url: 'https://example.com/clip.mp4' },
		});
	});

	test('Send Location, Contact Card, Poll and Reaction are stored with their content', async () => {
		const location = await run({
			operation: 'sendLocation',
			to: '+14155550151',
			latitude: 52.520008,
			longitude: 13.404954,
			options: { name: 'Head office' },
		});
		const card = await run({
			operation: 'sendContactCard',
			to: '+14155550151',
			contacts: {
				contact: [
					{
						name: 'Ana Silva',
						phoneNumbers: '+1 415 555 0199, 0044 20 7946 0958',
						email: 'ana@example.com',
					},
				],
			},
		});
		const poll = await run({
			operation: 'sendPoll',
			to: '+14155550151',
			question: 'Which day?',
			pollOptions: 'Monday, Tuesday,  Friday',
			multipleAnswers: true,
		});
		const target = location.json(NODE_NAME)[0].id as string;
		const reaction = await run({
			operation: 'sendReaction',
			to: '+14155550151',
			messageId: target,
			emoji: '👍',
		});

		expect(stored(location.json(NODE_NAME)[0].id)?.content).toEqual({
			latitude: 52.520008,
			longitude: 13.404954,
			name: 'Head office',
			address: null,
		});
		expect(stored(card.json(NODE_NAME)[0].id)?.content).toEqual({
			contacts: [
				{
					name: 'Ana Silva',
					phoneNumbers: ['+14155550199', '+442079460958'],
					email: 'ana@example.com',
				},
			],
		});
		expect(stored(poll.json(NODE_NAME)[0].id)?.content).toEqual({
			question: 'Which day?',
			options: ['Monday', 'Tuesday', 'Friday'],
			multipleAnswers: true,
		});
		expect(stored(reaction.json(NODE_NAME)[0].id)?.content).toEqual({
			messageId: target,
			emoji: '👍',
		});
	});

	test('Get (simplified and raw), Mark as Read and Delete', async () => {
		const received = await suite.service.inbound(
			suite.instance.id,
			'+14155550161',
			'Are you open today?',
		);

		const simple = await run({ operation: 'get', messageId: received.id });
		const full = await run({ operation: 'get', messageId: received.id, simplify: false });
		const read = await run({ operation: 'markRead', messageId: received.id });

		expect(simple.json(NODE_NAME)[0]).toEqual({
			id: received.id,
			instanceId: suite.instance.id,
			chatId: expect.any(String),
			direction: 'inbound',
			from: '+14155550161',
			to: suite.instance.phoneNumber,
			type: 'text',
			status: expect.any(String),
			text: 'Are you open today?',
			createdAt: expect.any(String),
		});
		expect(full.json(NODE_NAME)[0]).toMatchObject({
			content: { text: 'Are you open today?' },
			error: null,
		});
		expect(read.json(NODE_NAME)[0]).toMatchObject({ id: received.id, status: 'read' });
		expect(stored(received.id)?.status).toBe('read');

		const deleted = await run({ operation: 'delete', messageId: received.id });
		expect(deleted.json(NODE_NAME)).toEqual([{ deleted: true, id: received.id }]);
		expect(stored(received.id)).toBeUndefined();
	});

	test('404 for an unknown message, with its message', async () => {
		const result = await run({ operation: 'get', messageId: 'msg_missing' });

		expect(result.error).toMatchObject({
			name: 'NodeApiError',
			httpCode: '404',
			message: 'The message was not found [item 0]',
		});
	});

	test('bulk sends with concurrency against the sandbox: every message sent, outputs in input order', async () => {
		const phones = Array.from({ length: 12 }, (_, index) => `+1415555${String(2000 + index)}`);

		const result = await run(
			{
				operation: 'sendText',
				to: '={{ $json.phone }}',
				text: 'Bulk',
				options: { concurrency: 6 },
			},
			phones.map((phone) => ({ phone })),
		);

		const output = result.output(NODE_NAME);
		expect(output.map((item) => item.json.to)).toEqual(phones);
		expect(output.map((item) => item.pairedItem)).toEqual(phones.map((_, item) => ({ item })));
		for (const item of output) expect(stored(item.json.id)?.to).toBe(item.json.to);
	});
});
