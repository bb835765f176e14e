import type { z as zod } from 'zod/v4';

import { z } from '../../src/client/zod';

/**
 * What an operation's output items look like, as zod schemas (`output` of an operation file). n8n's editor
 * shows them before the node has run, so fields can be mapped at once; `npm run openapi` writes them as the
 * node's `__schema__` files. Most are the contract's own answer schemas; these cover the rest.
 */

/** One output item per element of a list endpoint's pages (Get Many). */
export function listItem<T extends zod.ZodType>(endpoint: {
	response: { shape: { data: zod.ZodArray<T> } };
}): T {
	return endpoint.response.shape.data.element;
}

/** What a delete outputs (the service answers 204 with no body): the ID of what is gone. */
export const Deleted = z.object({
	deleted: z.literal(true),
	id: z.string(),
});
