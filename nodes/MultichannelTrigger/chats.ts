/**
 * The chats a person names in the trigger's Chats filter, read so that a person's number and their chat id are one
 * (`+1 415 555 0123`, `0014155550123` and `14155550123@s.whatsapp.net` are the same chat). Kept small and apart
 * from the action nodes' number reading (nodes/shared/phone.ts) so that it can move onto the shared reading of
 * numbers when that learns national forms; until then a national-looking number is refused, never guessed.
 */

/** A chat as the filter compares it: a group by its id, a person by the digits of their number. */
export type ChatKey = string;

const GROUP_ID = /^[\w.-]+@g\.us$/i;
const PERSON_CHAT_ID = /^(\d+)@s\.whatsapp\.net$/i;
/** Characters people write between digits: spaces (also non-breaking), dashes, dots, slashes, parentheses. */
const SEPARATORS = /[\s\u00a0\u2010-\u2015\-./()]/g;
/** The digits of an E.164 number: a country code that does not start with 0, 7 to 15 digits in all. */
const E164_DIGITS = /^[1-9]\d{6,14}$/;

/** The chat a chosen entry names, or why it names none (a sentence to show the user). */
export function chatKeyOf(entry: string): { key: ChatKey } | { problem: string } {
	const given = entry.trim();
	if (GROUP_ID.test(given)) return { key: given.toLowerCase() };
	const person = PERSON_CHAT_ID.exec(given);
	if (person) return E164_DIGITS.test(person[1]) ? { key: person[1] } : notANumber(given);
	const compact = given.replace(SEPARATORS, '');
	if (/^0[1-9]/.test(compact)) {
		return {
			problem: `"${given}" looks like a national number; write it with its country code, such as +44 20 7946 0958 or 0044 20 7946 0958`,
		};
	}
	const digits = compact.startsWith('+')
		? compact.slice(1)
		: compact.startsWith('00')
			? compact.slice(2)
			: compact;
	return E164_DIGITS.test(digits) ? { key: digits } : notANumber(given);
}

function notANumber(given: string): { problem: string } {
	return {
		problem: `"${given}" is neither a phone number with its country code (+14155550123, 0014155550123) nor a chat ID (14155550123@s.whatsapp.net, a group's …@g.us)`,
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

/** Whether a received message or burst is in a group (its chat id ends in `@g.us`). */
export function isGroupChat(data: Record<string, unknown>): boolean {
	return typeof data.chatId === 'string' && /@g\.us$/i.test(data.chatId);
}
