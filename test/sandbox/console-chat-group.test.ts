/* eslint-disable @n8n/community-nodes/no-restricted-globals -- tests run in plain Node, never inside n8n */
/**
 * The console's phone in a group chat: picking a group of the instance offers its members; a member writes
 * and taps as themself (the group's chat), and the others' messages show with their number. The member's acts
 * (issue 48): a reaction, an edit and a delete of their own message, presence, and the instance restricted, each
 * its event once.
 */
import { chromiumAvailable } from '../../dev/browser/chromium';
import type { Sandbox } from '../../sandbox/server';
import { chatMessage, openChat } from '../support/console-chat';
import {
	clientsFor,
	connectedInstance,
	consoleInBrowser,
	raw,
	signInToConsole,
} from '../support/sandbox';

type Keys = NonNullable<Sandbox['keys']>;

(chromiumAvailable() || process.env.CI ? describe : describe.skip)(
	'console: the phone in a group',
	() => {
		const session = consoleInBrowser();

		it('writes, taps, reacts, edits and deletes as the member picked; the others show with their number', async () => {
			const { sandbox, page } = session;
			const keys = sandbox.keys as Keys;
			const client = clientsFor(sandbox.baseUrl, keys).workspace;
			const { id: instanceId } = await connectedInstance(sandbox, 'Console group', '+14155550170');
			const [ada, bo] = ['+14155550171', '+14155550172'];
			const group = await client.groups.create({
				instanceId,
				body: { subject: 'Tuesday run', participants: [ada, bo] },
			});
			await signInToConsole(page, sandbox.baseUrl, keys.workspace);

			await openChat(page, instanceId, bo, { groupId: group.id });
			expect(await page.text('#chat-from-label')).toBe('Member who writes');
			// The members are offered once the group's read comes back (slower through the contract proxy).
			const members = `[...document.querySelectorAll('#chat-member-options option')].map((option) => option.value)`;
			await page.waitFor(`${members}.length >= 2`, {
				timeoutMs: 20_000,
				what: 'the members offered',
			});
			expect(await page.evaluate(members)).toEqual(expect.arrayContaining([ada, bo]));
			// The instance is a member (the group's owner), but the phone cannot write as it.
			expect(await page.evaluate(members)).not.toContain('+14155550170');

			const fromAda = await raw(
				sandbox.baseUrl,
				'POST',
				`/sandbox/instances/${instanceId}/inbound`,
				{
					key: keys.workspace,
					body: { from: ada, groupId: group.id, text: 'Who brings water?' },
				},
			);
			await page.waitFor(
				`!!document.querySelector('${chatMessage((fromAda.body as { id: string }).id)}.theirs')`,
				{
					timeoutMs: 8000,
					what: 'Ada’s message',
				},
			);
			expect(await page.text(`${chatMessage((fromAda.body as { id: string }).id)} .sender`)).toBe(
				ada,
			);

			await page.type('#chat-text', 'I do');
			await page.click('#chat-send');
			await page.waitFor(`document.getElementById('chat-text').value === ''`, { what: 'the send' });
			const mine = sandbox.store.all('messages', (message) => message.content.text === 'I do');
			expect(mine).toMatchObject([{ from: bo, chatId: group.id, direction: 'inbound' }]);

			const poll = await client.messages.sendButtons({
				instanceId,
				body: { to: group.id, text: 'Start at 7?', buttons: [{ id: 'ok', title: 'OK' }] },
			});
			const button = `${chatMessage(poll.id)} button[data-id="ok"]`;
			await page.waitFor(`!!document.querySelector('${button}')`, {
				timeoutMs: 8000,
				what: 'the buttons',
			});
			await page.click(button);
			await page.waitFor(
				`[...document.querySelectorAll('#chat-messages li.mine')].some((bubble) => bubble.dataset.type === 'reply')`,
				{ timeoutMs: 8000, what: 'the tap in the view' },
			);
			const taps = sandbox.store.all(
				'messages',
				(message) => message.reply?.toMessageId === poll.id,
			);
			expect(taps).toMatchObject([{ from: bo, chatId: group.id, reply: { id: 'ok' } }]);

			// The member's acts: each through the phone's controls, each its event once.
			const acts = (type: string) =>
				sandbox.core.emitted
					.filter((event) => event.type === type)
					.map((event) => event.data as Record<string, unknown>);
			await page.click(`${chatMessage(poll.id)} button[title="React to this message"]`);
			await page.waitFor(
				`document.querySelector('${chatMessage(poll.id)} .reactions')?.textContent === '👍'`,
				{
					timeoutMs: 8000,
					what: 'the reaction on the buttons message',
				},
			);
			await page.click(`${chatMessage(mine[0].id)} button[title="Edit your message"]`);
			await page.playwright.fill('#chat-text', 'I do, two bottles');
			await page.click('#chat-send');
			await page.waitFor(`document.getElementById('chat-text').value === ''`, { what: 'the edit' });
			await page.click(`${chatMessage(mine[0].id)} button[title="Delete for everyone"]`);
			await page.waitFor(`!!document.querySelector('${chatMessage(mine[0].id)} .deleted')`, {
				timeoutMs: 8000,
				what: 'the message shown deleted',
			});
			// A reply quoting it quotes what the chat shows, not its empty content.
			const noted = await client.messages.sendText({
				instanceId,
				body: { to: group.id, text: 'Noted', quotedMessageId: mine[0].id },
			});
			await page.waitFor(`!!document.querySelector('${chatMessage(noted.id)} .quote')`, {
				timeoutMs: 8000,
				what: 'the reply quoting the deleted message',
			});
			expect(await page.text(`${chatMessage(noted.id)} .quote`)).toBe('This message was deleted');
			await page.playwright.selectOption('#chat-presence', 'recording');
			await page.click('#chat-presence-send');
			await page.click('#chat-restrict');
			await page.waitFor(`document.getElementById('chat-error').hidden`, { what: 'no error' });
			expect(acts('message.reaction')).toEqual([
				expect.objectContaining({ messageId: poll.id, from: bo, emoji: '👍', action: 'added' }),
			]);
			expect(acts('message.edited')).toEqual([
				expect.objectContaining({ id: mine[0].id, by: 'contact', previousText: 'I do' }),
			]);
			expect(acts('message.deleted')).toEqual([
				expect.objectContaining({ id: mine[0].id, by: 'contact' }),
			]);
			expect(acts('presence.updated')).toEqual([
				expect.objectContaining({ from: bo, state: 'recording', chatId: group.id }),
			]);
			expect(acts('instance.restricted')).toEqual([
				expect.objectContaining({ instanceId, reason: 'spam_reports' }),
			]);
		});
	},
);
