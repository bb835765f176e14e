import type { BrowserPage } from '../../dev/browser/chromium';

/** The console's phone, as its tests drive it (test/sandbox/console-chat*.test.ts). */

/** The selector of a message's bubble in the chat view. */
export const chatMessage = (messageId: string) =>
	`#chat-messages li[data-message-id="${messageId}"]`;

/**
 * Picks the instance (once the console offers it), the group when given, types the number and opens the
 * chat; waits for the chat to show, or with `expectError` for the form's error.
 */
export async function openChat(
	page: BrowserPage,
	instanceId: string,
	number: string,
	options: { groupId?: string; expectError?: boolean } = {},
): Promise<void> {
	await page.waitFor(`!!document.querySelector('#chat-instance option[value="${instanceId}"]')`, {
		what: 'the instance among the choices',
	});
	await page.playwright.selectOption('#chat-instance', instanceId);
	if (options.groupId) {
		await page.waitFor(
			`!!document.querySelector('#chat-group option[value="${options.groupId}"]')`,
			{ what: 'the group among the choices' },
		);
		await page.playwright.selectOption('#chat-group', options.groupId);
	}
	await page.type('#chat-from', number);
	await page.click('#chat-open');
	await page.waitFor(
		options.expectError
			? `!document.getElementById('chat-pick-error').hidden`
			: `!document.getElementById('chat-phone').hidden && document.getElementById('chat-pick-error').hidden && document.getElementById('chat-messages').dataset.filled === 'true'`,
		{ what: options.expectError ? 'the error' : 'the chat' },
	);
}
