import { api } from '../../../../src/client';
import { workspaceConnection } from '../../../shared/connections';
import { pageQuery, searchMethod } from '../../../shared/lists';
import { locator } from '../../../shared/locator';

/** An instance: picked from the workspace's instances (searchable), or given by ID or expression. */
export const instanceLocator = locator({
	displayName: 'Instance',
	name: 'instanceId',
	noun: 'instance',
	searchListMethod: 'searchInstances',
	idPlaceholder: 'e.g. inst_8f2a4c6e1b3d5f70',
	description: 'The instance (connected channel session) to use',
});

/** Fills "From list": the workspace's instances whose name or ID contains what the user typed. */
export const searchInstances = searchMethod({
	connection: workspaceConnection,
	scope: api.workspace.instances.list.scope,
	noun: 'instance',
	page: async (client, { cursor }) => await client.instances.list({ query: pageQuery(cursor) }),
	toItem: (instance) => ({
		name: `${instance.name ?? instance.id}${instance.status ? ` (${instance.status})` : ''}`,
		value: instance.id,
	}),
});
