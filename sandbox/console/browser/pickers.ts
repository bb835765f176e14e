import { el } from './dom';
import { callApi, session } from './session';

/**
 * What the console offers to pick from, so that nobody copies `inst_…` or `msg_…` IDs by hand: lists read with
 * a key, as the suggestions of a datalist or the options of a select. Suggestions only: when the key may not
 * read a list, or anything fails, there are none.
 */

interface Listed<T> {
	data?: T[];
}

/** A list's first page (100 at most); none when the key may not read it. */
export async function readList<T>(path: string, key: string | null = session.key): Promise<T[]> {
	if (!key) return [];
	try {
		const response = await callApi('GET', path, undefined, key);
		if (!response.ok) return [];
		return ((await response.json()) as Listed<T>).data ?? [];
	} catch {
		return [];
	}
}

export interface Option {
	value: string;
	label: string;
}

/** Replaces the options of a datalist or select; a select keeps its choice when it is still offered. */
export function fillOptions(list: HTMLElement, options: Option[], first?: Option): void {
	const select = list instanceof HTMLSelectElement ? list : null;
	const chosen = select?.value;
	list.replaceChildren(
		...[...(first ? [first] : []), ...options].map(({ value, label }) => {
			const option = el('option', { value });
			option.label = label;
			option.textContent = label;
			return option;
		}),
	);
	if (select && chosen && options.some((option) => option.value === chosen)) select.value = chosen;
}
