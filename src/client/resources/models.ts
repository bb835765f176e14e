import { z } from '../zod';

import { operation } from '../operation';
import { named, pathParams } from '../schemas';

/** The OpenAI-compatible model list: the one endpoint the service documents publicly. */
export const Model = named(
	'Model',
	z.looseObject({
		id: z.string(),
		object: z.string().optional(),
		created: z.number().optional(),
		owned_by: z.string().optional(),
	}),
);
export type Model = z.output<typeof Model>;

export const ModelList = named(
	'ModelList',
	z.looseObject({ object: z.string().optional(), data: z.array(Model) }),
);

export const modelOperations = {
	list: operation({
		method: 'GET',
		path: '/models',
		summary: 'List the AI models the workspace can use for automated replies',
		scope: 'messaging:read',
		response: ModelList,
		status: 200,
	}),
	get: operation({
		method: 'GET',
		path: '/models/{modelId}',
		summary: 'Get a model',
		scope: 'messaging:read',
		params: pathParams('modelId'),
		response: Model,
		status: 200,
	}),
};
