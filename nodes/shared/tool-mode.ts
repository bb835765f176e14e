import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * How the node runs, from its type: n8n names a node's tool variant for AI agents `<type>Tool` and its human
 * review variant (Human in the Loop, for nodes with Send and Wait) `<type>HitlTool`.
 */
export type ToolMode = 'node' | 'tool' | 'humanReviewTool';

export function toolMode(context: IExecuteFunctions): ToolMode {
	const type = context.getNode().type;
	if (type.endsWith('HitlTool')) return 'humanReviewTool';
	return type.endsWith('Tool') ? 'tool' : 'node';
}

/** Whether an AI agent calls the node, as either kind of tool. */
export function inToolMode(context: IExecuteFunctions): boolean {
	return toolMode(context) !== 'node';
}
