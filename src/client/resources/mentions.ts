/**
 * Mentions in a text or a caption (the contract's 2026-11-25 addition): the numbers mentioned, and whether the
 * text shows each as `@<number>`, which is what makes the channel notify that person. zod-free, so that the
 * sandbox, the node and the console's browser script read it alike.
 */

/** How many people one message may mention; "everyone" in a group is `mentionEveryone`, not a list. */
export const MAX_MENTIONS = 100;

/** The digits of an E.164 number, as the text shows it after `@`: `+14155550123` → `14155550123`. */
export function mentionDigits(phoneNumber: string): string {
	return phoneNumber.replace(/\D/g, '');
}

/** Whether the text shows `@<number>` for this number (`@14155550123` or `@+14155550123`, not followed by a digit). */
export function showsMention(text: string, phoneNumber: string): boolean {
	return new RegExp(`@\\+?${mentionDigits(phoneNumber)}(?!\\d)`).test(text);
}

/** The numbers the text does not show as `@<number>`. */
export function mentionsNotShown(text: string, mentions: readonly string[]): string[] {
	return mentions.filter((number) => !showsMention(text, number));
}

/**
 * The text with `@<number>` added at its end for each mention it does not show yet (what the node does, so that
 * every mention notifies): `Meeting at 5` with +14155550123 → `Meeting at 5 @14155550123`.
 */
export function withMentionsShown(text: string, mentions: readonly string[]): string {
	const missing = mentionsNotShown(text, mentions).map((number) => `@${mentionDigits(number)}`);
	if (missing.length === 0) return text;
	return text === '' ? missing.join(' ') : `${text} ${missing.join(' ')}`;
}
