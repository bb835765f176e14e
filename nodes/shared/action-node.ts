import { NodeConnectionTypes, type INodeTypeDescription } from 'n8n-workflow';

/** What every action node's description says alike: version 1, one input and one output. */
export const actionBasics = {
	group: ['output'],
	version: 1,
	inputs: [NodeConnectionTypes.Main],
	outputs: [NodeConnectionTypes.Main],
} satisfies Partial<INodeTypeDescription>;
