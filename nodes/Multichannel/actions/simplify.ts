import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/** "Simplify": shown on operations whose answers are large (groups, messages). */
export const simplifyField: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description: 'Whether to return a simplified version of the response instead of the raw data',
};

export function simplifyWanted(context: IExecuteFunctions, itemIndex: number): boolean {
	return context.getNodeParameter('simplify', itemIndex, true) as boolean;
}
