/**
 * The one rule for a list typed in one field (numbers, chats, ids, tags, answers): entries separated by commas,
 * semicolons or new lines, or given as a list by an expression. The nodes and the sandbox share it.
 */

/** What separates the entries of a typed list. */
export const LIST_SEPARATORS = /[,;\n]/;

/**
 * Each entry as text, trimmed, empty entries dropped; nothing given is an empty list. Undefined when the value
 * is neither text nor a list of texts and numbers.
 */
export function listEntries(value: unknown): string[] | undefined {
	if (value === undefined || value === null) return [];
	const entries = Array.isArray(value)
		? value
		: typeof value === 'string'
			? value.split(LIST_SEPARATORS)
			: undefined;
	if (!entries || entries.some((entry) => typeof entry !== 'string' && typeof entry !== 'number')) {
		return undefined;
	}
	return entries.map((entry) => String(entry).trim()).filter((entry) => entry !== '');
}
