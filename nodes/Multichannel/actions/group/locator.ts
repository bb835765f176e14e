import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { api } from '../../../../src/client';
import type { Group } from '../../../../src/client/resources/groups';
import { compact, currentLocatorValue, locator, searchList } from '../common';

/** A group of the chosen instance: picked from its groups (searchable), or given by ID or expression. */
export const groupLocator = locator({
	displayName: 'Group',
	name: 'groupId',
	noun: 'group',
	searchListMethod: 'searchGroups',
	idPlaceholder: 'e.g. 120363025246125486@g.us',
	idRegex: { regex: '^[\\w.-]+@g\\.us$', errorMessage: 'A group ID ends in @g.us' },
	description: 'The group to use',
});

/** Fills "From list": the groups of the instance chosen above whose subject or ID contains the filter. */
export async function searchGroups(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const instanceId = currentLocatorValue(this, 'instanceId');
	if (!instanceId) return { results: [] };
	return await searchList(this, {
		scope: api.workspace.groups.list.scope,
		noun: 'group',
		filter,
		paginationToken,
		page: async (client, cursor) =>
			await client.groups.list({
				instanceId,
				query: { limit: 100, ...(cursor ? { cursor } : {}) },
			}),
		toItem: (group) => ({ name: group.subject ?? group.id, value: group.id }),
	});
}

/** The essentials of a group: its name, description, size and settings, without the participant list. */
export function simplifyGroup(group: Group): IDataObject {
	return compact({
		id: group.id,
		instanceId: group.instanceId,
		subject: group.subject,
		description: group.description ?? undefined,
		owner: group.owner ?? undefined,
		participantCount: group.participants?.length,
		announcementsOnly: group.settings?.announcementsOnly,
		locked: group.settings?.locked,
		createdAt: group.createdAt,
	});
}
