import type { IExecuteFunctions } from 'n8n-workflow';

import { api, GROUP_ID_PATTERN } from '../../../../src/client';
import { workspaceConnection } from '../../../shared/connections';
import { pageQuery, searchMethod } from '../../../shared/lists';
import { locator, locatorValue } from '../../../shared/locator';

/** A group of the chosen instance: picked from its groups (searchable), or given by ID or expression. */
export const groupLocator = locator({
	displayName: 'Group',
	name: 'groupId',
	noun: 'group',
	searchListMethod: 'searchGroups',
	idPlaceholder: 'e.g. 120363025246125486@g.us',
	idRegex: { regex: GROUP_ID_PATTERN.source, errorMessage: 'A group ID ends in @g.us' },
	description: 'The group to use',
});

/** The instance and group an item names: the path of every single-group request. */
export function groupOf(
	context: IExecuteFunctions,
	itemIndex: number,
): { instanceId: string; groupId: string } {
	return {
		instanceId: locatorValue(context, 'instanceId', itemIndex),
		groupId: locatorValue(context, 'groupId', itemIndex),
	};
}

/** Fills "From list": the groups of the instance chosen above whose subject or ID contains the filter. */
export const searchGroups = searchMethod({
	connection: workspaceConnection,
	scope: api.workspace.groups.list.scope,
	noun: 'group',
	dependsOn: 'instanceId',
	page: async (client, { cursor, parent }) =>
		await client.groups.list({ instanceId: parent, query: pageQuery(cursor) }),
	toItem: (group) => ({ name: group.subject ?? group.id, value: group.id }),
});
