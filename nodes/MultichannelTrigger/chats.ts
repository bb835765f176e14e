import {
	isGroupChatId,
	numberOfPersonChatId,
	personWithoutNumber,
	USERNAME_PATTERN,
	usernameProblem,
} from '../../src/client/chat-ids';
import { toE164 } from '../../src/client/phone-number';

/**
 * The chats a person names in the trigger's Chats filter, read so that a person's number and their chat id are one
 * (`+1 415 555 0123`, `0014155550123` and `14155550123@s.whatsapp.net` are the same chat). Numbers are read by the
 * one phone rule (src/client/phone-number.ts), without a country: a national-looking number is refused, never
 * guessed. A person who hides their number is named by their contact id, `@username` or `…@lid` chat id: a
 * received message carries all three (`from`, `username`, `chatId`), so any of them chooses it.
 */

/**
 * A chat as the filter compares it: a group by its id, a person by the digits of their number, or by their contact
 * id, `@username` (in lower case: the channel ignores case) or `…@lid` chat id.
 */
export type ChatKey = string;

/** The chat a chosen entry names, or why it names none (a sentence to show the user). */
export function chatKeyOf(entry: string): { key: ChatKey } | { problem: string } {
	const given = entry.trim();
	if (isGroupChatId(given)) return { key: given.toLowerCase() };
	const withoutNumber = personWithoutNumber(given);
	if (withoutNumber !== undefined) {
		return {
			key: USERNAME_PATTERN.test(withoutNumber) ? withoutNumber.toLowerCase() : withoutNumber,
		};
	}
	const badUsername = usernameProblem(given);
	if (badUsername !== undefined) return { problem: badUsername };
	const read = toE164(numberOfPersonChatId(given) ?? given);
	if ('number' in read) return { key: read.number.slice(1) };
	return {
		problem: `${read.problem}: give a phone number with its country code (+14155550123, 0014155550123), a chat ID (14155550123@s.whatsapp.net, a group's …@g.us), a contact ID (ct_…) or an @username`,
	};
}

/**
 * The chat of a received message or burst as chosen entries are compared: its `chatId`; in a chat with one person
 * also its sender (`from`) and their `@username`, the other names of that chat.
 */
export function chatKeysOfEvent(data: Record<string, unknown>): ChatKey[] {
	const username = typeof data.username === 'string' ? `@${data.username}` : undefined;
	const names = isGroupChat(data) ? [data.chatId] : [data.chatId, data.from, username];
	return names.flatMap((value) => {
		if (typeof value !== 'string' || value === '') return [];
		const read = chatKeyOf(value);
		return 'key' in read ? [read.key] : [];
	});
}

/** Whether a received message or burst is in a group (its chat id is a group's). */
export function isGroupChat(data: Record<string, unknown>): boolean {
	return isGroupChatId(data.chatId);
}
