/**
 * The one phone rule for everything a person types (the nodes' fields, the sandbox console's forms): a number as
 * written, in the one form the service takes (E.164). `+44 (20) 7946-0958`, `0044 20 7946 0958`,
 * `44.20.7946.0958` and `+442079460958` all become `+442079460958`; a number without `+` or `00` is read as
 * already starting with its country code.
 */

/** E.164: a `+`, a country code that does not start with 0, 7 to 15 digits in all. */
export const E164_PATTERN = /^\+[1-9][0-9]{6,14}$/;

/** Characters people write between digits: spaces (also non-breaking), dashes, dots, slashes, parentheses. */
const SEPARATORS = /[\s\u00a0\u2010-\u2015\-./()]/g;

/** The number in E.164, or why it cannot be one (`problem`, then how to write it, `hint`). */
export function toE164(value: unknown): { number: string } | { problem: string; hint: string } {
	const given = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '';
	const compact = given.trim().replace(SEPARATORS, '');
	let number = compact;
	if (number.startsWith('00')) number = `+${number.slice(2)}`;
	else if (!number.startsWith('+')) number = `+${number}`;
	if (E164_PATTERN.test(number)) return { number };
	const problem =
		given.trim() === ''
			? 'a phone number is required'
			: `"${given.trim()}" is not a valid phone number`;
	const reason = /[^\d+]/.test(compact)
		? 'It may contain only digits, a leading + or 00, spaces, dashes, dots and parentheses.'
		: 'An international number has its country code and 7 to 15 digits in all.';
	return {
		problem,
		hint: `${reason} Enter it with its country code, such as +14155550123 or 0044 20 7946 0958.`,
	};
}
