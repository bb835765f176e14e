import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { maxResults, returnAllOrLimit } from '../../../shared/get-many';
import type { OperationContext } from '../../../shared/resources';
import { listItem } from '../../../shared/output';

export const option = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many models',
	description: 'List the AI models the workspace can use for automated replies',
};

export const description: INodeProperties[] = [...returnAllOrLimit()];

export const scope = api.workspace.models.list.scope;
export const output = listItem(api.workspace.models.list);

/**
 * The model list is the OpenAI-compatible one: a single answer with every model, no pages. "Limit" keeps the
 * first models of it.
 */
export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	const { data } = await client.models.list();
	return data.slice(0, maxResults(this, itemIndex));
}
