/**
 * Chat ids and the other names of a person, by the contract's rule (docs/openapi.json): a group's id is
 * `<letters, digits, _ . ->@g.us`, a person's is `<digits>@s.whatsapp.net` when their number is visible and
 * `<digits>@lid` (the channel's "linked id") when they hide it. The suffix is a domain: it is recognised in any case
 * (`…@G.US` is the same group) and written in lower case, the only form the service takes. A person is also named
 * by their contact id (`ct_…`, the contacts resource's id, which needs no number) or their `@username`. The nodes
 * and the sandbox share it.
 */

/** A group id exactly as the service takes it. */
export const GROUP_ID_PATTERN = /^[A-Za-z0-9_.-]+@g\.us$/;
const GROUP_ID_ANY_CASE = new RegExp(GROUP_ID_PATTERN.source, 'i');
const PERSON_CHAT_ID_ANY_CASE = /^([0-9]+)@s\.whatsapp\.net$/i;
const GROUP_SUFFIX = '@g.us';

/** The chat id of a person who hides their number: the channel's linked id, digits that are no number. */
export const HIDDEN_NUMBER_CHAT_ID_PATTERN = /^[1-9][0-9]{6,19}@lid$/;
const HIDDEN_NUMBER_CHAT_ID_ANY_CASE = new RegExp(HIDDEN_NUMBER_CHAT_ID_PATTERN.source, 'i');
/** A contact id, as the contacts resource gives it. */
export const CONTACT_ID_PATTERN = /^ct_[A-Za-z0-9]{1,64}$/;
/** A username as a person types it: `@`, then 3 to 35 letters, digits, dots or underscores. */
export const USERNAME_PATTERN = /^@[A-Za-z0-9._]{3,35}$/;
/** `USERNAME_PATTERN` in words, for the errors a person reads. */
const USERNAME_RULE = 'after the @ come 3 to 35 letters, digits, dots or underscores';

/**
 * Why text that starts with @ is no username, in words a person reads; undefined for anything else. No number or chat
 * id starts with @, so such text was meant as a username.
 */
export function usernameProblem(value: string): string | undefined {
	if (!value.startsWith('@') || USERNAME_PATTERN.test(value)) return undefined;
	return `"${value}" is not a valid username: ${USERNAME_RULE}`;
}

/** Whether a chat id (or a recipient) names a group. */
export function isGroupChatId(value: unknown): boolean {
	return typeof value === 'string' && GROUP_ID_ANY_CASE.test(value);
}

/** A group id as the service takes it: its suffix in lower case. */
export function groupChatId(groupId: string): string {
	return `${groupId.slice(0, -GROUP_SUFFIX.length)}${GROUP_SUFFIX}`;
}

/** The number (`+<digits>`) of a person's chat id; undefined for anything else. */
export function numberOfPersonChatId(value: string): string | undefined {
	const digits = PERSON_CHAT_ID_ANY_CASE.exec(value)?.[1];
	return digits === undefined ? undefined : `+${digits}`;
}

/**
 * A person named without a number, as the service takes it: a hidden-number chat id (`…@lid`, in lower case), a
 * contact id or an `@username` (a username is matched ignoring case); undefined for anything else.
 */
export function personWithoutNumber(value: string): string | undefined {
	if (HIDDEN_NUMBER_CHAT_ID_ANY_CASE.test(value)) return value.toLowerCase();
	if (CONTACT_ID_PATTERN.test(value) || USERNAME_PATTERN.test(value)) return value;
	return undefined;
}
