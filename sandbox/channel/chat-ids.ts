import { E164_PATTERN } from '../../src/client/phone-number';
import { isGroupChatId } from '../../src/client/chat-ids';

/** How the channel names a chat, and which numbers it knows. */

/** The sandbox's rule for "does this number exist on the channel": numbers ending in 0000 do not. */
export function numberExists(phoneNumber: string): boolean {
	return !phoneNumber.endsWith('0000');
}

export function chatIdOf(recipient: string): string {
	return isGroupChatId(recipient) ? recipient : `${recipient.replace(/^\+/, '')}@s.whatsapp.net`;
}

/**
 * The chat a request names: its chat id, or a person's number in E.164, which names that person's chat wherever
 * a chat is taken (the contract, 2026-11-25 "Numbers").
 */
export function chatIdNamed(chat: string): string {
	return E164_PATTERN.test(chat) ? chatIdOf(chat) : chat;
}
