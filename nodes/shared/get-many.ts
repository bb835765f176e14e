import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/** The "Get Many" operations' common part: "Return All" or "Limit", and how many results that asks for. */

/** "Return All" and "Limit", shown together on every Get Many operation. */
export function returnAllOrLimit(): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			displayOptions: { show: { returnAll: [false] } },
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
		},
	];
}

/** The most results an item asks for: all of them ("Return All"), or its "Limit". */
export function maxResults(context: IExecuteFunctions, itemIndex: number): number {
	const returnAll = context.getNodeParameter('returnAll', itemIndex) as boolean;
	return returnAll ? Infinity : (context.getNodeParameter('limit', itemIndex) as number);
}

/** An item's Filters collection, and its Search (trimmed) as a list query's `search`, left out when empty. */
export function readFilters<F extends { search?: unknown }>(
	context: IExecuteFunctions,
	itemIndex: number,
): { filters: F; query: { search?: string } } {
	const filters = context.getNodeParameter('filters', itemIndex, {}) as F;
	const search = String(filters.search ?? '').trim();
	return { filters, query: search ? { search } : {} };
}
