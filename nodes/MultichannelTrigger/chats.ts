import { isGroupChatId, numberOfPersonChatId } from '../../src/client/chat-ids';
import { toE164 } from '../../src/client/phone-number';

/**
 * The chats a person names in the trigger's Chats filter, read so that a person's number and their chat id are one
 * (`+1 415 555 0123`, `0014155550123` and `14155550123@s.whatsapp.net` are the same chat). Numbers are read by the
 * one phone rule (src/client/phone-number.ts), without a country: a national-looking number is refused, never
 * guessed.
 */

/** A chat as the filter compares it: a group by its id, a person by the digits of their number. */
export type ChatKey = string;

/** The chat a chosen entry names, or why it names none (a sentence to show the user). */
export function chatKeyOf(entry: string): { key: ChatKey } | { problem: string } {
	const given = entry.trim();
	if (isGroupChatId(given)) return { key: given.toLowerCase() };
	const read = toE164(numberOfPersonChatId(given) ?? given);
	if ('number' in read) return { key: read.number.slice(1) };
	return {
		problem: `${read.problem}: give a phone number with its country code (+14155550123, 0014155550123) or a chat ID (14155550123@s.whatsapp.net, a group's …@g.us)`,
	};
}

/** The chat of a received message or burst (its `chatId`, else its sender), as chosen entries are compared. */
export function chatKeyOfEvent(data: Record<string, unknown>): ChatKey | undefined {
	for (const value of [data.chatId, data.from]) {
		if (typeof value !== 'string' || value === '') continue;
		const read = chatKeyOf(value);
		if ('key' in read) return read.key;
	}
	return undefined;
}

/** Whether a received message or burst is in a group (its chat id is a group's). */
export function isGroupChat(data: Record<string, unknown>): boolean {
	return isGroupChatId(data.chatId);
}
