import type { api } from '../../../src/client/api';
import { notFound } from '../../errors';
import type { ResourceHandlers } from './context';

/** The AI models a sandbox workspace can use for automated replies (OpenAI-compatible shape). */
const MODELS = [
	{ id: 'mc-reply-mini', object: 'model', created: 1_735_689_600, owned_by: 'multichannel' },
	{ id: 'mc-reply-large', object: 'model', created: 1_735_689_600, owned_by: 'multichannel' },
	{ id: 'mc-intent-classifier', object: 'model', created: 1_738_368_000, owned_by: 'multichannel' },
];

export const modelHandlers: ResourceHandlers<typeof api.workspace.models> = {
	list: () => ({ object: 'list', data: MODELS.map((model) => ({ ...model })) }),
	get: ({ params }) => {
		const model = MODELS.find((candidate) => candidate.id === params.modelId);
		if (!model) throw notFound('Model', params.modelId);
		return { ...model };
	},
};
