import { CALLING_CODES, COUNTRIES } from './phone-metadata.generated';

/**
 * The one phone rule for everything a person types (the nodes' fields, the sandbox console's forms): a number as
 * written, in the one form the service takes (E.164), sent only where the person meant it.
 * - International forms are read as they are: `+44 (20) 7946-0958`, `0044 20 7946 0958`, and the digits alone as
 *   the channel's own chat ids carry them (`442079460958`, or grouped from a calling code: `44 20 7946 0958`).
 * - National forms (parentheses, a trunk prefix such as `0`, groups that do not start with a calling code, or,
 *   where a country writes its numbers without a trunk prefix, as many digits as they have) are read in the
 *   default country the person chose: `(415) 555-0177` in US is +14155550177, `030 1234567` in DE is
 *   +49301234567. With no default country they are refused, and so are bare digits that could be either
 *   (`14155550177` in DE): guessing a country sends a message to a stranger.
 * - The calling code must be assigned and the digits after it as many as that country's numbers have
 *   (the table in phone-metadata.generated.ts, from libphonenumber's metadata).
 */

/** E.164: a `+`, a country code that does not start with 0, 7 to 15 digits in all. */
export const E164_PATTERN = /^\+[1-9][0-9]{6,14}$/;

/** How an international number is written, for hints. */
const WITH_COUNTRY_CODE = 'with its country code, such as +14155550123 or 0044 20 7946 0958';

/** Characters people write between digits: spaces (also non-breaking), dashes, dots, slashes, parentheses. */
const SEPARATORS = /[\s\u00a0\u2010-\u2015\-./()]/g;

export type PhoneReading = { number: string } | { problem: string; hint: string };

/** The countries a person may choose as the default, by English name: `{ name: 'Germany (+49)', value: 'DE' }`. */
export function countryChoices(): Array<{ name: string; value: string }> {
	return Object.entries(COUNTRIES)
		.map(([value, [name, callingCode]]) => ({ name: `${name} (+${callingCode})`, value }))
		.sort((a, b) => a.name.localeCompare(b.name));
}

/** The country a default-country setting names (`de`, ` DE `), or undefined when none is set. */
export function defaultCountryOf(value: unknown): string | undefined {
	const code = typeof value === 'string' ? value.trim().toUpperCase() : '';
	return code === '' ? undefined : code;
}

/** The number in E.164, or why it cannot be one (`problem`, then how to write it, `hint`). */
export function toE164(value: unknown, defaultCountry?: string): PhoneReading {
	const given = (
		typeof value === 'number' ? String(value) : typeof value === 'string' ? value : ''
	).trim();
	if (given === '') return refused('a phone number is required', `Enter one ${WITH_COUNTRY_CODE}.`);
	const compact = given.replace(SEPARATORS, '');
	if (!/^\+?\d+$/.test(compact)) {
		return refused(
			`"${given}" is not a valid phone number`,
			`It may contain only digits, a leading + or 00, spaces, dashes, dots and parentheses; enter it ${WITH_COUNTRY_CODE}.`,
		);
	}
	if (compact.startsWith('+')) return international(given, compact.slice(1));
	if (compact.startsWith('00')) return international(given, compact.slice(2));

	const country = defaultCountry === undefined ? undefined : COUNTRIES[defaultCountry];
	if (defaultCountry !== undefined && !country) {
		return refused(
			`the Default Country "${defaultCountry}" is not a two-letter country code`,
			'Choose the Default Country from the list, or give its two-letter code, such as US or DE.',
		);
	}
	if (!country) {
		const looksNational = nationalSign(given, compact);
		if (looksNational) {
			return refused(
				`"${given}" looks like a national number (${looksNational}) and no Default Country is set`,
				`Choose the Default Country it is written in (in the credential, or the node's Default Country), or enter it ${WITH_COUNTRY_CODE}.`,
			);
		}
		const reading = international(given, compact);
		if ('number' in reading) return reading;
		// Digits alone that are no international number may be a national one (4155550177 in the US).
		return refused(
			reading.problem,
			`${reading.hint.replace(/\.$/, '')}; or, if it is a national number, choose the Default Country it is written in (in the credential, or the node's Default Country).`,
		);
	}
	return inCountry(given, compact, defaultCountry as string, country);
}

/** Why a number without `+` or `00` reads as national, or '' when it reads as the channel's ids do. */
function nationalSign(given: string, compact: string): string {
	if (/[()]/.test(given)) return 'it has parentheses';
	if (compact.startsWith('0')) return 'it starts with a trunk 0';
	const firstGroup = /^\d+(?=[^\d])/.exec(given)?.[0];
	if (firstGroup !== undefined && !(firstGroup in CALLING_CODES)) {
		return `its first group, ${firstGroup}, is not a country calling code`;
	}
	return '';
}

/**
 * A number without `+` or `00`, read with a default country: after the country's trunk prefix, national; from
 * its own calling code, international. Without either, national only as the country's people write it: where
 * national numbers have no trunk prefix (or, as in the NANP, it is the calling code), or where the writing shows it
 * (an area code in parentheses, a first group that is no calling code). Bare digits in a country whose national
 * numbers start with a trunk prefix are read as international, as the channel's ids carry them, and refused when
 * they could also be that country's number without its prefix (`14155550177` in DE): guessing sends a message to
 * a stranger, so the error says how to write each.
 */
function inCountry(
	given: string,
	compact: string,
	code: string,
	[name, callingCode, trunkPrefix, lengths]: readonly [string, string, string, readonly number[]],
): PhoneReading {
	const fits = (digits: string) => lengths.includes(digits.length);
	if (
		trunkPrefix !== '' &&
		compact.startsWith(trunkPrefix) &&
		fits(compact.slice(trunkPrefix.length))
	) {
		return international(given, callingCode + compact.slice(trunkPrefix.length));
	}
	if (
		!/[()]/.test(given) &&
		compact.startsWith(callingCode) &&
		fits(compact.slice(callingCode.length))
	) {
		return international(given, compact);
	}
	const writtenNationally = nationalSign(given, compact) !== '';
	const withoutTrunkPrefix = trunkPrefix === '' || trunkPrefix === callingCode;
	if ((withoutTrunkPrefix || writtenNationally) && fits(compact)) {
		return international(given, callingCode + compact);
	}
	const country = `${name} (the Default Country, ${code}, +${callingCode})`;
	if (!writtenNationally) {
		const reading = international(given, compact);
		if ('number' in reading && fits(compact)) {
			return refused(
				`"${given}" could be ${reading.number} or a number of ${country} written without its trunk prefix ${trunkPrefix}`,
				`Enter it with + and its country code: ${reading.number}, or +${callingCode}${compact} for ${name}.`,
			);
		}
		if ('number' in reading) return reading;
		if (fits(compact)) {
			return refused(
				`"${given}" is no international number, and a national number of ${country} starts with its trunk prefix ${trunkPrefix}`,
				`Write it ${trunkPrefix}${compact} or +${callingCode}${compact} if it is a number of ${name}; else enter it ${WITH_COUNTRY_CODE}.`,
			);
		}
	}
	return refused(
		`"${given}" is not a valid phone number in ${country}: its national numbers have ${digitCounts(lengths)} digits${trunkPrefix ? `, without the trunk prefix ${trunkPrefix}` : ''}`,
		`Check the digits, or enter it ${WITH_COUNTRY_CODE}.`,
	);
}

/** Digits after `+`: an assigned calling code, then as many digits as its countries' numbers have. */
function international(given: string, digits: string): PhoneReading {
	const callingCode = [1, 2, 3]
		.map((size) => digits.slice(0, size))
		.find((code) => code in CALLING_CODES);
	if (!callingCode || digits.startsWith('0')) {
		return refused(
			`"${given}" is not a valid phone number: no country has the calling code it starts with`,
			`No country has that code: check the first digits, and enter it ${WITH_COUNTRY_CODE}.`,
		);
	}
	const [who, lengths] = CALLING_CODES[callingCode];
	const rest = digits.length - callingCode.length;
	const number = `+${digits}`;
	if (!E164_PATTERN.test(number) && lengths.includes(rest)) {
		return refused(
			`"${given}" is not a valid phone number: it has ${digits.length} digits with its country code, and an international number has 7 to 15`,
			`Check the digits, and enter it ${WITH_COUNTRY_CODE}.`,
		);
	}
	if (!lengths.includes(rest)) {
		return refused(
			`"${given}" is not a valid phone number: it has ${digitsCount(rest)} after +${callingCode} (${who}), whose numbers have ${digitCounts(lengths)}`,
			`Check the digits (one may be missing or extra), and enter it ${WITH_COUNTRY_CODE}.`,
		);
	}
	return { number };
}

/** `1` → "1 digit", `8` → "8 digits". */
function digitsCount(count: number): string {
	return `${count} digit${count === 1 ? '' : 's'}`;
}

/** `[9, 12]` → "9 or 12", `[4, 5, 6]` → "4 to 6". */
function digitCounts(lengths: readonly number[]): string {
	const [first, last] = [lengths[0], lengths[lengths.length - 1]];
	if (lengths.length > 2 && last - first === lengths.length - 1) return `${first} to ${last}`;
	return lengths.length === 1 ? String(first) : `${lengths.slice(0, -1).join(', ')} or ${last}`;
}

function refused(problem: string, hint: string): PhoneReading {
	return { problem, hint };
}
