/**
 * Mentions, Send Voice Note and Send Sticker of the Multichannel node, run as real workflows through n8n-core
 * against the sandbox (issue 36): mentions read in the Default Country, added to the text when it does not show
 * them, refused naming the field and item when they cannot notify; a voice note and a sticker go from a binary
 * field or a URL, other files are refused before any request, saying why; as an AI tool, from $fromAI.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	registerToolVariant,
	runWithFiles,
	byId,
	failure,
	multichannelNode,
	NODE_NAME,
	useResource,
} from '../support/nodes';
import { sampleFile } from '../../sandbox/files/samples';

const MEMBER = '+14155550341';
const STRANGER = '+14155550349';

describe('mentions, voice notes and stickers through the node', () => {
	const suite = useResource('message', { instance: 'Mentions' });
	let groupId: string;
	beforeAll(async () => {
		groupId = (
			await suite.service.client.groups.create({
				instanceId: suite.instance.id,
				body: { subject: 'Team', participants: [MEMBER] },
			})
		).id;
	});
	const messages = async () =>
		(
			await suite.service.client.messages.list({
				instanceId: suite.instance.id,
				query: { limit: 5 },
			})
		).data;

	test('Send Text: a mention read in the Default Country is added to the text, and notifies', async () => {
		const result = await suite.run({
			operation: 'sendText',
			to: groupId,
			text: 'Can you look at this?',
			defaultCountry: 'US',
			options: { mentions: '(415) 555-0341' },
		});
		expect(result.error).toBeUndefined();
		expect(result.json(NODE_NAME)[0]).toMatchObject({
			content: { text: 'Can you look at this? @14155550341' },
			mentions: [MEMBER],
		});
		// A text that shows it already is sent as written.
		const shown = await suite.run({
			operation: 'sendText',
			to: groupId,
			text: '@14155550341 please',
			options: { mentions: MEMBER, mentionEveryone: true },
		});
		expect(shown.json(NODE_NAME)[0]).toMatchObject({
			content: { text: '@14155550341 please' },
			mentions: [MEMBER],
			mentionEveryone: true,
		});
	});

	test('Send Media: the caption mentions, and an item whose mention cannot notify stops naming the field and item', async () => {
		const ok = await runWithFiles(
			multichannelNode('message', {
				instanceId: byId(suite.instance.id),
				operation: 'sendMedia',
				to: groupId,
				caption: 'New menu',
				options: { mentions: MEMBER },
			}),
			[{ ...sampleFile('image'), fileName: 'menu.png' }],
			suite.service.credentials,
		);
		expect(ok.error).toBeUndefined();
		expect(ok.json(NODE_NAME)[0]).toMatchObject({
			content: { caption: 'New menu @14155550341' },
			mentions: [MEMBER],
		});

		const stranger = await suite.run({
			operation: 'sendText',
			to: groupId,
			text: 'Hi',
			options: { mentions: STRANGER },
		});
		expect(failure(stranger).message).toContain(STRANGER);
		expect(failure(stranger).message).toMatch(/\[item 0\]: Mentioned but not in the chat/);

		const everyoneToPerson = await suite.run({
			operation: 'sendText',
			to: MEMBER,
			text: 'Hi',
			options: { mentionEveryone: true },
		});
		expect(failure(everyoneToPerson).message).toBe(
			'Invalid value for "Mention Everyone" [item 0]: it is for groups only, and this message goes to one person',
		);
		const national = await suite.run({
			operation: 'sendText',
			to: groupId,
			text: 'Hi',
			options: { mentions: '555-0341' },
		});
		expect(failure(national).message).toContain('"Mentions" [item 0]');
	});

	const fileNode = (operation: string, parameters: IDataObject = {}) =>
		multichannelNode('message', {
			instanceId: byId(suite.instance.id),
			operation,
			to: MEMBER,
			...parameters,
		});

	test('Send Voice Note: OGG/Opus from a binary field plays as a voice note; an MP3 is refused before sending', async () => {
		const before = (await messages()).length;
		const voice = sampleFile('voice');
		const sent = await runWithFiles(
			fileNode('sendVoiceNote'),
			[voice as never],
			suite.service.credentials,
		);
		expect(sent.error).toBeUndefined();
		expect(sent.json(NODE_NAME)[0]).toMatchObject({
			type: 'voice',
			media: { size: voice.data.length },
		});

		const mp3 = await runWithFiles(
			fileNode('sendVoiceNote'),
			[{ data: Buffer.from('ID3 not an ogg'), fileName: 'answer.mp3', mimeType: 'audio/mpeg' }],
			suite.service.credentials,
		);
		expect(failure(mp3).message).toContain(
			'"Input Binary Field" [item 0]: a voice note must be OGG/Opus',
		);
		expect(failure(mp3).message).toContain('audio/mpeg');
		const byUrl = await suite.run({
			operation: 'sendVoiceNote',
			to: MEMBER,
			source: 'url',
			url: 'https://example.com/answer.mp3',
		});
		expect(failure(byUrl).message).toContain('"File URL" [item 0]: a voice note must be OGG/Opus');
		// Only the one voice note reached the service.
		expect((await messages()).length).toBe(before + 1);
	});

	test('Send Sticker: a WebP goes as a sticker; a PNG is refused, saying what to do', async () => {
		const sticker = sampleFile('sticker');
		const sent = await runWithFiles(
			fileNode('sendSticker'),
			[sticker as never],
			suite.service.credentials,
		);
		expect(sent.error).toBeUndefined();
		expect(sent.json(NODE_NAME)[0]).toMatchObject({ type: 'sticker' });

		const png = await runWithFiles(
			fileNode('sendSticker'),
			[{ ...sampleFile('image'), fileName: 'thanks.png' }],
			suite.service.credentials,
		);
		expect(failure(png).message).toContain('a sticker must be a WebP image');
		expect(failure(png).message).toContain('Convert it to WebP');
	});

	test('as an AI tool: the recipient, text and mentions from $fromAI', async () => {
		const { type } = await registerToolVariant();
		const result = await suite.run(
			{
				operation: 'sendText',
				to: "={{ $fromAI('to', 'The group', 'string') }}",
				text: "={{ $fromAI('text', 'The text', 'string') }}",
				options: { mentions: "={{ $fromAI('mentions', 'Numbers to mention', 'string') }}" },
			},
			[{ to: groupId, text: 'Your turn', mentions: MEMBER }],
			{ type },
		);
		expect(result.error).toBeUndefined();
		expect(result.json(NODE_NAME)[0]).toMatchObject({ mentions: [MEMBER] });
	});
});
