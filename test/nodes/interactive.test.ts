/**
 * Send Buttons, Send List, Edit and Send Typing of the Multichannel node, run as real workflows through
 * n8n-core against the sandbox (the output and the sandbox's state), with the channel's limits reported
 * before sending under the field names the user sees. What goes on the wire is in interactive-wire.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../dev/harness';
import {
	byId,
	expectNoSecrets,
	multichannelNode,
	NODE_NAME,
	startService,
	type TestService,
} from '../support/nodes';

let service: TestService;
let instance: { id: string; phoneNumber: string };
beforeAll(async () => {
	service = await startService();
	instance = await service.connectedInstance('Interactive');
});
afterAll(async () => await service.close());

const run = (parameters: IDataObject, items?: IDataObject[], extra = {}) =>
	runNode(multichannelNode('message', { instanceId: byId(instance.id), ...parameters }, extra), {
		credentials: service.credentials,
		items,
	});
const stored = (id: unknown) => service.sandbox.store.get('messages', id as string);
const outboundCount = () =>
	service.sandbox.store.all('messages', (message) => message.direction === 'outbound').length;

describe('Send Buttons', () => {
	test('buttons from the editor: sent and stored, an empty ID is the title', async () => {
		const result = await run({
			operation: 'sendButtons',
			to: '+1 415 555 0141',
			text: 'Is Tuesday at 10:00 still good?',
			buttons: {
				button: [
					{ title: 'Yes, see you', id: 'confirm' },
					{ title: 'Move it', id: '' },
				],
			},
			options: { header: 'Your appointment', footer: 'Dental Care Co.' },
		});

		expect(result.error).toBeUndefined();
		const [sent] = result.json(NODE_NAME);
		expect(sent).toMatchObject({ to: '+14155550141', type: 'buttons', status: 'sent' });
		expect(stored(sent.id)?.content).toEqual({
			text: 'Is Tuesday at 10:00 still good?',
			header: 'Your appointment',
			footer: 'Dental Care Co.',
			buttons: [
				{ id: 'confirm', title: 'Yes, see you' },
				{ id: 'Move it', title: 'Move it' },
			],
		});
		expectNoSecrets(result, [service.apiKey]);
	});

	test('buttons as JSON from an expression, one message per item', async () => {
		const result = await run(
			{
				operation: 'sendButtons',
				to: '={{ $json.phone }}',
				text: 'Pick one',
				buttonsInput: 'json',
				buttonsJson: '={{ $json.choices }}',
			},
			[
				{ phone: '+14155550142', choices: [{ id: 'a', title: 'A' }] },
				{
					phone: '+14155550143',
					choices: '[{"id": "b", "title": "B"}, {"id": "c", "title": "C"}]',
				},
			],
		);

		expect(result.error).toBeUndefined();
		expect(
			result
				.output(NODE_NAME)
				.map((item) => [item.pairedItem, stored(item.json.id)?.content.buttons]),
		).toEqual([
			[{ item: 0 }, [{ id: 'a', title: 'A' }]],
			[
				{ item: 1 },
				[
					{ id: 'b', title: 'B' },
					{ id: 'c', title: 'C' },
				],
			],
		]);
	});

	test.each([
		[
			'a title over 20 characters',
			{ buttons: { button: [{ title: 'OK' }, { title: 'Yes please, at that time' }] } },
			'Invalid value for "Button 2 › Title" [item 0]: at most 20 characters; this one has 24',
		],
		[
			'four buttons from an expression',
			{
				buttonsInput: 'json',
				buttonsJson: JSON.stringify(['A', 'B', 'C', 'D'].map((title) => ({ title, id: title }))),
			},
			'Invalid value for "Buttons" [item 0]: at most 3 buttons; there are 4',
		],
		[
			'two buttons with one ID',
			{
				buttons: {
					button: [
						{ title: 'A', id: 'x' },
						{ title: 'B', id: 'x' },
					],
				},
			},
			'Invalid value for "Button 2 › ID" [item 0]: id "x" is used twice',
		],
		[
			'no button from an expression',
			{ buttonsInput: 'json', buttonsJson: '[]' },
			'Invalid value for "Buttons" [item 0]: needs at least one button',
		],
		[
			'JSON that is not JSON',
			{ buttonsInput: 'json', buttonsJson: '[{"id": "a", ' },
			'Invalid value for "Buttons (JSON)" [item 0]: it is not valid JSON',
		],
		[
			'JSON with an unknown field',
			{ buttonsInput: 'json', buttonsJson: '[{"id": "a", "title": "A", "colour": "red"}]' },
			'Invalid value for "Button 1" [item 0]: has a field it does not take: "colour"',
		],
		[
			'a footer over 60 characters',
			{ buttons: { button: [{ title: 'OK' }] }, options: { footer: 'f'.repeat(61) } },
			'Invalid value for "Footer" [item 0]: at most 60 characters; this one has 61',
		],
	])(
		'%s: refused before sending, naming the field and the item',
		async (_, parameters, message) => {
			const before = outboundCount();

			const result = await run({
				operation: 'sendButtons',
				to: '+14155550144',
				text: 'Pick one',
				...parameters,
			});

			expect(result.error).toMatchObject({ name: 'NodeOperationError', message });
			expect(outboundCount()).toBe(before);
		},
	);

	test('a title counts characters as the channel shows them: 20 emoji fit, 21 do not', async () => {
		const send = (title: string) =>
			run({
				operation: 'sendButtons',
				to: '+14155550144',
				text: 'Pick one',
				buttons: { button: [{ title, id: 'emoji' }] },
			});
		// Each is two UTF-16 units: counted in units, 11 would already be over 20.
		const fits = await send('😀'.repeat(20));
		expect(fits.error).toBeUndefined();
		expect(stored(fits.json(NODE_NAME)[0].id)?.content.buttons).toEqual([
			{ id: 'emoji', title: '😀'.repeat(20) },
		]);

		const before = outboundCount();
		const over = await send('😀'.repeat(21));
		expect(over.error).toMatchObject({
			message:
				'Invalid value for "Button 1 › Title" [item 0]: at most 20 characters; this one has 21',
		});
		expect(outboundCount()).toBe(before);
	});
});

describe('Send List', () => {
	test('rows from the editor, grouped into sections by their Section', async () => {
		const result = await run({
			operation: 'sendList',
			to: '+14155550145',
			text: 'When suits you?',
			buttonText: 'See times',
			rows: {
				row: [
					{ title: '09:00', id: 'am-9', description: 'Dr. Silva', section: 'Morning' },
					{ title: '14:00', id: 'pm-2', section: 'Afternoon' },
					{ title: '11:00', id: 'am-11', section: 'Morning' },
				],
			},
		});

		expect(result.error).toBeUndefined();
		const [sent] = result.json(NODE_NAME);
		expect(sent).toMatchObject({ type: 'list', status: 'sent' });
		expect(stored(sent.id)?.content).toMatchObject({
			buttonText: 'See times',
			sections: [
				{
					title: 'Morning',
					rows: [
						{ id: 'am-9', title: '09:00', description: 'Dr. Silva' },
						{ id: 'am-11', title: '11:00', description: null },
					],
				},
				{ title: 'Afternoon', rows: [{ id: 'pm-2', title: '14:00', description: null }] },
			],
		});
	});

	test('sections as JSON, or a plain list of rows as one section', async () => {
		const sections = [{ title: 'Sizes', rows: [{ id: 's', title: 'Small' }] }];
		const rows = [
			{ id: 'r', title: 'Red' },
			{ id: 'g', title: 'Green', description: 'Like grass' },
		];
		const result = await run(
			{
				operation: 'sendList',
				to: '+14155550146',
				text: 'Choose',
				buttonText: 'Options',
				rowsInput: 'json',
				sectionsJson: '={{ $json.list }}',
			},
			[{ list: sections }, { list: rows }],
		);

		expect(result.error).toBeUndefined();
		expect(result.json(NODE_NAME).map((sent) => stored(sent.id)?.content.sections)).toEqual([
			[{ title: 'Sizes', rows: [{ id: 's', title: 'Small', description: null }] }],
			[
				{
					title: null,
					rows: [
						{ id: 'r', title: 'Red', description: null },
						{ id: 'g', title: 'Green', description: 'Like grass' },
					],
				},
			],
		]);
	});

	test.each([
		[
			'11 rows in two sections from an expression',
			{
				rowsInput: 'json',
				sectionsJson: JSON.stringify(
					['A', 'B'].map((title, section) => ({
						title,
						rows: Array.from({ length: section ? 5 : 6 }, (_, n) => ({
							id: `${title}${n}`,
							title: `Slot ${title}${n}`,
						})),
					})),
				),
			},
			'Invalid value for "Rows" [item 0]: at most 10 rows in all sections together (found 11)',
		],
		[
			'rows in two sections, some without one',
			{ rows: { row: [{ title: 'One', section: 'A' }, { title: 'Two' }] } },
			'Invalid value for "Section 2 › Section Title" [item 0]: each section needs a title when there are several',
		],
		[
			'a row title over 24 characters',
			{ rows: { row: [{ title: 'A very long row title here' }] } },
			'Invalid value for "Section 1 › Row 1 › Title" [item 0]: at most 24 characters; this one has 26',
		],
		[
			'JSON that is an object',
			{ rowsInput: 'json', sectionsJson: '{"rows": []}' },
			'Invalid value for "Sections (JSON)" [item 0]: it must be a JSON list',
		],
	])(
		'%s: refused before sending, naming the field and the item',
		async (_, parameters, message) => {
			const before = outboundCount();

			const result = await run({
				operation: 'sendList',
				to: '+14155550147',
				text: 'Choose',
				buttonText: 'Open',
				...parameters,
			});

			expect(result.error).toMatchObject({ name: 'NodeOperationError', message });
			expect(outboundCount()).toBe(before);
		},
	);
});

describe('Edit and Send Typing', () => {
	test('Edit: the text of a sent text message changes', async () => {
		const sent = await service.client.messages.sendText({
			instanceId: instance.id,
			body: { to: '+14155550148', text: 'See you at 10' },
		});

		const result = await run({ operation: 'edit', messageId: sent.id, text: 'See you at 11' });

		expect(result.error).toBeUndefined();
		expect(result.json(NODE_NAME)[0]).toMatchObject({
			id: sent.id,
			content: { text: 'See you at 11' },
			editedAt: expect.any(String),
		});
		expect(stored(sent.id)?.content.text).toBe('See you at 11');
	});

	test('Edit: a message that is not text is refused by the service, with its reason', async () => {
		const poll = await service.client.messages.sendPoll({
			instanceId: instance.id,
			body: { to: '+14155550148', question: 'Which?', options: ['A', 'B'] },
		});

		const result = await run({ operation: 'edit', messageId: poll.id, text: 'x' });

		expect(result.error).toMatchObject({
			name: 'NodeApiError',
			message: expect.stringContaining('only text messages can be edited'),
		});
		expect(stored(poll.id)?.content.question).toBe('Which?');
	});

	test('Send Typing: shown in the chat for the seconds asked; waits for them when asked', async () => {
		const started = Date.now();
		const result = await run({
			operation: 'sendTyping',
			to: '+14155550149',
			state: 'recording',
			seconds: 1,
			options: { wait: true },
		});

		expect(result.error).toBeUndefined();
		expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
		const [typing] = result.json(NODE_NAME);
		expect(typing).toMatchObject({ chatId: '14155550149@s.whatsapp.net', state: 'recording' });
		expect(service.sandbox.store.get('instances', instance.id)?.typing).toMatchObject({
			'14155550149@s.whatsapp.net': { state: 'recording', until: typing.until },
		});
	});

	test('Send Typing: more seconds than a channel shows are refused before sending', async () => {
		const result = await run({ operation: 'sendTyping', to: '+14155550149', seconds: 30 });

		expect(result.error).toMatchObject({
			name: 'NodeOperationError',
			message: 'Invalid value for "Seconds" [item 0]: must be at most 25; it is 30',
		});
	});
});
