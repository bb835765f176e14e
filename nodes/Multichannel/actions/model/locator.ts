import { api } from '../../../../src/client';
import { workspaceConnection } from '../../../shared/connections';
import { searchMethod } from '../../../shared/lists';
import { locator } from '../../../shared/locator';

/** A model: picked from the workspace's list (searchable), or given by ID or expression. */
export const modelLocator = locator({
	displayName: 'Model',
	name: 'modelId',
	noun: 'model',
	searchListMethod: 'searchModels',
	idPlaceholder: 'e.g. gpt-4o-mini',
	description: 'The AI model',
});

/**
 * Fills "From List": the workspace's models whose ID or owner contains what the user typed. The model list is
 * one answer with every model, sorted here by ID.
 */
export const searchModels = searchMethod({
	connection: workspaceConnection,
	scope: api.workspace.models.list.scope,
	noun: 'model',
	page: async (client) => {
		const { data } = await client.models.list();
		return { data: [...data].sort((a, b) => a.id.localeCompare(b.id)) };
	},
	toItem: (model) => ({
		name: model.owned_by ? `${model.id} (${model.owned_by})` : model.id,
		value: model.id,
	}),
});
