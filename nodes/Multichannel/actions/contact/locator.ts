import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { api } from '../../../../src/client';
import { currentLocatorValue, locator, searchList } from '../common';

/** A contact of the chosen instance: picked from its contacts (searchable), or given by ID or expression. */
export const contactLocator = locator({
	displayName: 'Contact',
	name: 'contactId',
	noun: 'contact',
	searchListMethod: 'searchContacts',
	idPlaceholder: 'e.g. ct_5a1c9e7f3b2d4a60',
	description: 'The contact to use',
});

/**
 * Fills "From list": the contacts of the instance chosen above. The service searches names and numbers
 * itself, so the filter is passed on.
 */
export async function searchContacts(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const instanceId = currentLocatorValue(this, 'instanceId');
	if (!instanceId) return { results: [] };
	const search = filter?.trim() ?? '';
	return await searchList(this, {
		scope: api.workspace.contacts.list.scope,
		noun: 'contact',
		paginationToken,
		page: async (client, cursor) =>
			await client.contacts.list({
				instanceId,
				query: { limit: 100, ...(cursor ? { cursor } : {}), ...(search ? { search } : {}) },
			}),
		toItem: (contact) => ({
			name: contact.name
				? `${contact.name} (${contact.phoneNumber ?? contact.id})`
				: (contact.phoneNumber ?? contact.id),
			value: contact.id,
		}),
	});
}
