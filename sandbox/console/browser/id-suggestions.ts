import { el } from './dom';
import type { Endpoint, OpenApiDocument } from './openapi';
import { fillOptions, readList } from './pickers';

/**
 * The ids a path parameter of the cURL builder offers: where the path before `{name}` is itself an endpoint
 * that lists (`/api/v1/instances` for `{instanceId}`, `/api/v1/instances/{instanceId}/messages` for
 * `{messageId}`), its first page, read with the key pasted (or the one signed in with) once the parameters
 * before it are filled in. Suggestions only: nothing when the key may not list them.
 */

interface Listed {
	id: string;
	name?: string | null;
	subject?: string;
	url?: string;
	phoneNumber?: string | null;
	type?: string;
	content?: { text?: string };
}

const labelOf = (item: Listed): string =>
	[item.name ?? item.subject ?? item.phoneNumber ?? item.url, item.type, item.content?.text]
		.filter(Boolean)
		.join(' · ')
		.slice(0, 80) || item.id;

/** The path before `/{name}` when it is an endpoint that lists; null when it is not. */
function listingTemplate(
	document: OpenApiDocument,
	endpoint: Endpoint,
	name: string,
): string | null {
	const at = endpoint.path.indexOf(`/{${name}}`);
	const template = at > 0 ? endpoint.path.slice(0, at) : '';
	return document.paths?.[template]?.get ? template : null;
}

/** The listing path for a path parameter, with the parameters before it filled in; null when there is none. */
export function listingPathFor(
	document: OpenApiDocument,
	endpoint: Endpoint,
	name: string,
): string | null {
	const template = listingTemplate(document, endpoint, name);
	if (!template) return null;
	let missing = false;
	const path = template.replace(/\{(\w+)\}/g, (_whole, earlier: string) => {
		const value = endpoint.values.path[earlier];
		if (!value) missing = true;
		return encodeURIComponent(value ?? '');
	});
	return missing ? null : `${path}?limit=100`;
}

/** A datalist for the parameter's input, filled with the ids it may take each time the input gets the focus. */
export function idSuggestions(
	document: OpenApiDocument,
	endpoint: Endpoint,
	name: string,
	input: HTMLInputElement,
	key: () => string | null,
): HTMLDataListElement | null {
	if (!listingTemplate(document, endpoint, name)) return null;
	const list = el('datalist', { id: `ids-${endpoint.id}-${name}` });
	input.setAttribute('list', list.id);
	input.addEventListener('focus', () => {
		// Read at each focus: the parameters before it may have been filled in since.
		const path = listingPathFor(document, endpoint, name);
		if (!path) {
			fillOptions(list, []);
			return;
		}
		void readList<Listed>(path, key()).then((items) =>
			fillOptions(
				list,
				items.map((item) => ({ value: item.id, label: labelOf(item) })),
			),
		);
	});
	return list;
}
