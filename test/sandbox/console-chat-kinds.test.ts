/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- tests run in plain Node, never inside n8n */
/**
 * The console's phone with issue 36's kinds: mentions highlighted (and a message mentioning the instance marked),
 * voice notes played and stickers shown from the sandbox's files, polls with their votes that the contact casts
 * and changes (`poll.voted` as from a person), calls the contact makes and hangs up (rejected by the API or by
 * the instance's setting), scheduled sends (still to go, cancelled, then sent at their time) and the chat's labels.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { Browser, chromiumAvailable, type BrowserPage } from '../../dev/browser/chromium';
import { sampleFile } from '../../sandbox/files/samples';
import type { Sandbox } from '../../sandbox/server';
import { chatMessage, openChat } from '../support/console-chat';
import {
	clientsFor,
	connectedInstance,
	raw,
	signInToConsole,
	startTestSandbox,
} from '../support/sandbox';

type Keys = NonNullable<Sandbox['keys']>;

const SHOTS = process.env.CONSOLE_SHOTS ?? '';
const DEADLINE = { timeoutMs: 20_000 };

(chromiumAvailable() || process.env.CI ? describe : describe.skip)(
	'console: mentions, voice notes, stickers, polls, calls, scheduled sends and labels in the chat',
	() => {
		let sandbox: Sandbox;
		let browser: Browser | undefined;
		let page: BrowserPage;
		let keys: Keys;
		let client: ReturnType<typeof clientsFor>['workspace'];
		let instanceId: string;
		// The sandbox's clock, moved ahead to reach a scheduled send's time.
		let ahead = 0;
		const INSTANCE_NUMBER = '+14155550180';

		beforeAll(async () => {
			sandbox = await startTestSandbox({
				now: () => Date.now() + ahead,
				simulation: { deliveredAfterMs: 20, readAfterMs: 20, callRingMs: 120_000 },
			});
			browser = await Browser.launch({ timeoutMs: 30_000 });
			page = await browser.newPage();
			await page.setViewport(900, 1100);
			keys = sandbox.keys as Keys;
			client = clientsFor(sandbox.baseUrl, keys).workspace;
			({ id: instanceId } = await connectedInstance(sandbox, 'Kinds phone', INSTANCE_NUMBER));
			await signInToConsole(page, sandbox.baseUrl, keys.workspace);
		}, 60_000);
		afterAll(async () => {
			await browser?.close();
			await sandbox?.close();
		}, 30_000);

		/** A screenshot of the phone, when CONSOLE_SHOTS names a folder. */
		async function shot(name: string): Promise<void> {
			if (!SHOTS) return;
			mkdirSync(SHOTS, { recursive: true });
			await page.evaluate(`document.getElementById('chat-phone').scrollIntoView()`);
			await page.screenshot(join(SHOTS, `${name}.png`));
		}

		const exists = (selector: string) => `!!document.querySelector(${JSON.stringify(selector)})`;

		it('highlights mentions, marks a message that mentions the instance, plays voice notes and shows stickers', async () => {
			const contact = '+14155550181';
			const sent = await client.messages.sendText({
				instanceId,
				body: { to: contact, text: 'Hi @14155550181, your order is ready', mentions: [contact] },
			});
			await openChat(page, instanceId, contact);
			await page.waitFor(exists(`${chatMessage(sent.id)} .mention.you`), {
				...DEADLINE,
				what: 'the mention of the contact highlighted',
			});
			expect(await page.text(`${chatMessage(sent.id)} .mention.you`)).toBe('@14155550181');
			expect(await page.text(`${chatMessage(sent.id)} .mention-mark`)).toBe('@ mentions you');

			// The contact mentions the instance: sent with `mentions`, so the sandbox marks it `mentionsMe`.
			await page.type('#chat-text', 'Thanks @14155550180!');
			await page.click('#chat-send');
			await page.waitFor(`document.getElementById('chat-text').value === ''`, {
				...DEADLINE,
				what: 'the send',
			});
			const [mine] = sandbox.store.all(
				'messages',
				(m) => m.content.text === 'Thanks @14155550180!',
			);
			expect(mine).toMatchObject({ mentions: [INSTANCE_NUMBER], mentionsMe: true });
			await page.waitFor(exists(`${chatMessage(mine.id)} [data-mentions="instance"]`), {
				...DEADLINE,
				what: 'the message mentioning the instance marked',
			});
			expect(await page.text(`${chatMessage(mine.id)} .mention.instance`)).toBe('@14155550180');

			for (const sample of ['voice', 'sticker', 'image']) {
				await page.playwright.selectOption('#chat-sample', sample);
				await page.click('#chat-send-sample');
				await page.waitFor(
					exists(`#chat-messages li.mine[data-type="${sample === 'image' ? 'image' : sample}"]`),
					{ ...DEADLINE, what: `the ${sample} in the chat` },
				);
			}
			// The voice note plays the sandbox's file: its player has read the second of Ogg/Opus.
			const voice = `#chat-messages li[data-type="voice"] audio`;
			await page.waitFor(
				`(() => { const a = document.querySelector('${voice}'); return !!a && a.readyState >= 1 && a.duration > 0.5; })()`,
				{ ...DEADLINE, what: 'the voice note loaded in its player' },
			);
			expect(await page.evaluate(exists('#chat-messages li[data-type="voice"] .file'))).toBe(false);
			// The sticker is its image without a bubble (the sample a 96×96 smiley, not a 1×1 dot); the image is a
			// picture in a bubble, its file named under it, whoever sent it.
			const shownWidth = (selector: string) =>
				`(() => { const i = document.querySelector('${selector}'); return !!i && i.complete ? i.naturalWidth : 0; })()`;
			const sticker = '#chat-messages li.sticker[data-type="sticker"] img.sticker-image';
			await page.waitFor(`${shownWidth(sticker)} > 0`, { ...DEADLINE, what: 'the sticker shown' });
			expect(await page.evaluate(shownWidth(sticker))).toBe(96);
			const sentImage = await client.messages.sendMediaUpload({
				instanceId,
				body: { to: contact, mediaType: 'image', caption: 'Your receipt' },
				file: { ...sampleFile('image'), fileName: 'receipt.png' },
			});
			for (const image of [
				'#chat-messages li.mine[data-type="image"] img.picture',
				`${chatMessage(sentImage.id)} img.picture`,
			]) {
				await page.waitFor(`${shownWidth(image)} === 64`, { ...DEADLINE, what: `${image} shown` });
			}
			expect(await page.text(`${chatMessage(sentImage.id)} .text`)).toBe('Your receipt');
			expect(
				await page.evaluate(
					`getComputedStyle(document.querySelector('#chat-messages li[data-type="sticker"]')).backgroundColor`,
				),
			).toBe('rgba(0, 0, 0, 0)');
			expect(await page.text('#chat-messages li[data-type="image"] .file strong')).toBe('Image');
			await shot('mentions-voice-sticker');
		}, 90_000);

		it('shows a poll with its votes; the contact votes, changes the vote and takes it back (poll.voted)', async () => {
			const contact = '+14155550182';
			const poll = await client.messages.sendPoll({
				instanceId,
				body: { to: contact, question: 'Which day suits you?', options: ['Tue', 'Wed', 'Thu'] },
			});
			await openChat(page, instanceId, contact);
			const option = (index: number) => `${chatMessage(poll.id)} li[data-option="${index}"]`;
			const votesOf = (index: number) =>
				`document.querySelector('${option(index)} .votes')?.dataset.votes`;
			await page.waitFor(exists(`${option(0)} button.vote`), { ...DEADLINE, what: 'the poll' });
			const voted = () => sandbox.events.filter((event) => event.type === 'poll.voted');

			await page.click(`${option(0)} button.vote`);
			await page.waitFor(`${votesOf(0)} === '1'`, { ...DEADLINE, what: 'the vote counted' });
			expect(await page.text(`${option(0)} .voters`)).toBe('you');
			await page.click(`${option(1)} button.vote`);
			await page.waitFor(`${votesOf(1)} === '1' && ${votesOf(0)} === '0'`, {
				...DEADLINE,
				what: 'the vote changed',
			});
			expect(await page.evaluate(exists(`${option(1)} button.vote.chosen`))).toBe(true);
			await shot('poll');
			await page.click(`${option(1)} button.vote`);
			await page.waitFor(`${votesOf(1)} === '0'`, { ...DEADLINE, what: 'the vote taken back' });

			expect(voted().map((event) => event.data)).toMatchObject([
				{ messageId: poll.id, voter: contact, options: [{ name: 'Tue' }], replacesVote: false },
				{ voter: contact, options: [{ name: 'Wed' }], previousOptions: [{ name: 'Tue' }] },
				{ voter: contact, options: [], withdrawn: true },
			]);
		}, 90_000);

		it('lets the contact call and hang up; a rejected call shows its text, as does the reject-calls setting', async () => {
			const contact = '+14155550183';
			await openChat(page, instanceId, contact);
			const callLine = (status: string) => `#chat-messages li.call-line[data-status="${status}"]`;
			const callsOf = () => sandbox.store.all('calls', (call) => call.from === contact);

			await page.click('#chat-call-voice');
			await page.waitFor(exists(`${callLine('ringing')} button.hang-up`), {
				...DEADLINE,
				what: 'the call ringing',
			});
			await page.click(`${callLine('ringing')} button.hang-up`);
			await page.waitFor(exists(callLine('missed')), { ...DEADLINE, what: 'the call missed' });
			expect(await page.text(`${callLine('missed')} .call-text`)).toBe(
				'Missed voice call from you',
			);

			await page.click('#chat-call-video');
			await page.waitFor(exists(callLine('ringing')), { ...DEADLINE, what: 'the video call' });
			const ringing = callsOf().find((call) => call.status === 'ringing');
			await client.calls.reject({
				instanceId,
				callId: ringing?.id ?? '',
				body: { text: 'In a meeting, I will call back' },
			});
			await page.waitFor(
				exists(`li.call-line[data-call-id="${ringing?.id}"][data-status="rejected"]`),
				{
					...DEADLINE,
					what: 'the call rejected',
				},
			);
			expect(await page.text(`li.call-line[data-call-id="${ringing?.id}"] .call-text`)).toBe(
				'Video call from you rejected: “In a meeting, I will call back”',
			);

			await client.instances.update({
				instanceId,
				body: { rejectCalls: true, rejectCallsText: 'Please write instead' },
			});
			await page.waitFor(`!document.getElementById('chat-reject-calls').hidden`, {
				...DEADLINE,
				what: 'the setting shown',
			});
			await page.click('#chat-call-voice');
			await page.waitFor(
				`[...document.querySelectorAll('${callLine('rejected')} .call-text')].some((line) => line.textContent.includes('setting'))`,
				{ ...DEADLINE, what: 'the call rejected by the setting' },
			);
			const bySetting = callsOf().find((call) => call.rejectedBy === 'setting');
			expect(await page.text(`li.call-line[data-call-id="${bySetting?.id}"] .call-text`)).toBe(
				'Voice call from you rejected by the instance’s setting: “Please write instead”',
			);
			expect(
				callsOf().map(({ status, media, rejectedBy }) => ({ status, media, rejectedBy })),
			).toEqual([
				{ status: 'missed', media: 'voice', rejectedBy: null },
				{ status: 'rejected', media: 'video', rejectedBy: 'api' },
				{ status: 'rejected', media: 'voice', rejectedBy: 'setting' },
			]);
			await shot('calls');
			await client.instances.update({ instanceId, body: { rejectCalls: false } });
		}, 90_000);

		it('shows scheduled sends (to go, cancelled, then sent at their time) and the chat’s labels', async () => {
			const contact = '+14155550184';
			const at = (minutes: number) => new Date(Date.now() + ahead + minutes * 60_000).toISOString();
			const later = await client.messages.sendText({
				instanceId,
				body: { to: contact, text: 'Reminder: your appointment', sendAt: at(10) },
			});
			const dropped = await client.messages.sendText({
				instanceId,
				body: { to: contact, text: 'Never mind', sendAt: at(20) },
			});
			await client.scheduledMessages.cancel({ instanceId, messageId: dropped.id });
			// A chat exists once a message went either way; then it takes a label.
			await raw(sandbox.baseUrl, 'POST', `/sandbox/instances/${instanceId}/inbound`, {
				key: keys.workspace,
				body: { from: contact, text: 'When is it?' },
			});
			const label = await client.labels.create({ body: { name: 'Follow-up', color: '#ffaf04' } });
			await client.chats.addLabel({ instanceId, chatId: contact, labelId: label.id });

			await openChat(page, instanceId, contact);
			await page.waitFor(
				exists(`${chatMessage(later.id)}[data-status="scheduled"] .scheduled-at`),
				{
					...DEADLINE,
					what: 'the scheduled send',
				},
			);
			expect(await page.text(`${chatMessage(later.id)} .scheduled-at`)).toMatch(
				/^🕓 scheduled for \d{4}-\d\d-\d\d \d\d:\d\d UTC$/,
			);
			expect(await page.text(`${chatMessage(dropped.id)}[data-status="cancelled"] .status`)).toBe(
				'✕ cancelled',
			);
			await page.waitFor(exists(`#chat-labels .label-chip[data-label-id="${label.id}"]`), {
				...DEADLINE,
				what: 'the label chip',
			});
			expect(await page.text('#chat-labels .label-chip')).toBe('Follow-up');
			await shot('scheduled-labels');

			// Its time comes: the send goes, and the bubble turns into the message sent.
			ahead += 11 * 60_000;
			await page.waitFor(
				`!!document.querySelector('${chatMessage(later.id)}') && document.querySelector('${chatMessage(later.id)}').dataset.status !== 'scheduled'`,
				{ ...DEADLINE, what: 'the scheduled send sent' },
			);
			// Once, as the message sent: the scheduled send that went is not shown beside it.
			const shown = `document.querySelectorAll('${chatMessage(later.id)}').length`;
			expect(await page.evaluate(shown)).toBe(1);
			expect(await page.text(`${chatMessage(later.id)} .scheduled-at`)).toMatch(
				/^scheduled for .* UTC$/,
			);
			const status = await raw(
				sandbox.baseUrl,
				'GET',
				`/api/v1/instances/${instanceId}/messages/${later.id}`,
				{
					key: keys.workspace,
				},
			);
			expect(status.body).toMatchObject({ sendAt: expect.any(String), sentAt: expect.any(String) });
		}, 90_000);
	},
);
