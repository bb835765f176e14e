import { HIDDEN_NUMBER_CHAT_ID_PATTERN, isGroupChatId } from '../../src/client/chat-ids';

/** How the channel names a chat, and which numbers it knows. */

/** The sandbox's rule for "does this number exist on the channel": numbers ending in 0000 do not. */
export function numberExists(phoneNumber: string): boolean {
	return !phoneNumber.endsWith('0000');
}

/** The chat of a recipient as the channel takes it (`recipientNamed`): a group, a hidden number's, a number's. */
export function chatIdOf(recipient: string): string {
	return isGroupChatId(recipient) || HIDDEN_NUMBER_CHAT_ID_PATTERN.test(recipient)
		? recipient
		: `${recipient.replace(/^\+/, '')}@s.whatsapp.net`;
}
