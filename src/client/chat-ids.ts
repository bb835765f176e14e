/**
 * Chat ids, by the contract's rule (docs/openapi.json): a group's id is `<letters, digits, _ . ->@g.us`, a
 * person's is `<digits>@s.whatsapp.net`. The suffix is a domain: it is recognised in any case (`…@G.US` is the
 * same group) and written in lower case, the only form the service takes. The nodes and the sandbox share it.
 */

/** A group id exactly as the service takes it. */
export const GROUP_ID_PATTERN = /^[A-Za-z0-9_.-]+@g\.us$/;
const GROUP_ID_ANY_CASE = new RegExp(GROUP_ID_PATTERN.source, 'i');
const PERSON_CHAT_ID_ANY_CASE = /^([0-9]+)@s\.whatsapp\.net$/i;
const GROUP_SUFFIX = '@g.us';

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
