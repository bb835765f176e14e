import type { ILoadOptionsFunctions, INodeListSearchResult, INodeProperties } from 'n8n-workflow';

import { api } from '../../../../src/client';
import { workspaceConnection } from '../../../shared/client';
import { toNodeError } from '../../../shared/errors';

/** A model: picked from the workspace's list (searchable), or given by ID or expression. */
export const modelLocator: INodeProperties = {
	displayName: 'Model',
	name: 'modelId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The AI model',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a model...',
			typeOptions: {
				searchListMethod: 'searchModels',
				searchable: true,
			},
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. gpt-4o-mini',
			validation: [
				{
					type: 'regex',
					properties: {
						regex: '^\\S+$',
						errorMessage: 'A model ID has no spaces',
					},
				},
			],
		},
	],
};

/** Fills "From List": the workspace's models whose ID or owner contains what the user typed. */
export async function searchModels(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	try {
		const { client } = await workspaceConnection(this);
		const { data } = await client.models.list();
		const needle = filter?.trim().toLowerCase() ?? '';
		const results = data
			.filter(
				(model) =>
					model.id.toLowerCase().includes(needle) ||
					(model.owned_by ?? '').toLowerCase().includes(needle),
			)
			.sort((a, b) => a.id.localeCompare(b.id))
			.map((model) => ({
				name: model.owned_by ? `${model.id} (${model.owned_by})` : model.id,
				value: model.id,
			}));
		return { results };
	} catch (error) {
		throw toNodeError(this.getNode(), error, {
			keyKind: 'workspace',
			scope: api.workspace.models.list.scope,
			noun: 'model',
		});
	}
}
