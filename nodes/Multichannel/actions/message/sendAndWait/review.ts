import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { MAX_LENGTH } from '../../../../../src/client/resources/message-sends';
import { toolMode } from '../../../../shared/tool-mode';

/**
 * The question of the human review tool, readable. n8n generates that tool for every node with Send and Wait
 * (n8n/dist/tool-generation/hitl-tools.js) and gives its Message this default; inside a text, n8n's
 * expressions render the `{{ $tool.parameters }}` object as "[object Object]". So where the message uses it,
 * the arguments are written here instead: one per line, nested values as short JSON.
 */
const N8N_DEFAULT_MESSAGE =
	'=The agent wants to run this tool: {{ $tool.name }}\n\nInput:\n{{ $tool.parameters }}';
const PARAMETERS = /\{\{\s*\$tool\.parameters\s*\}\}/;
const OBJECT_TEXT = '[object Object]';
/** How long one value may be before it is cut, so that one long argument does not hide the others. */
const VALUE_LENGTH = 300;

export function reviewText(context: IExecuteFunctions, itemIndex: number, text: string): string {
	if (toolMode(context) !== 'humanReviewTool') return text;
	const raw = String(context.getNodeParameter('message', itemIndex, '', { rawExpressions: true }));
	if (!PARAMETERS.test(raw)) return text;
	const tool = (context.evaluateExpression('{{ $tool }}', itemIndex) ?? {}) as IDataObject;
	const lines = argumentLines(tool.parameters);
	const readable =
		raw.trim() === N8N_DEFAULT_MESSAGE
			? `The agent wants to run this tool: ${String(tool.name ?? 'a tool')}\n\nInput:\n${lines}`
			: text.split(OBJECT_TEXT).join(lines);
	return fitted(readable, MAX_LENGTH.interactiveBody);
}

/** The tool's arguments, one `name: value` a line: strings as they are, anything nested as JSON, each cut short. */
function argumentLines(parameters: unknown): string {
	if (parameters === null || typeof parameters !== 'object' || Array.isArray(parameters)) {
		return valueText(parameters);
	}
	const entries = Object.entries(parameters as IDataObject);
	if (entries.length === 0) return '(none)';
	return entries.map(([name, value]) => `${name}: ${valueText(value)}`).join('\n');
}

function valueText(value: unknown): string {
	if (value === undefined) return '(none)';
	return fitted(
		typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)),
		VALUE_LENGTH,
	);
}

/** Cut to what an approval message holds, in characters (code points), rather than fail the agent's call. */
function fitted(text: string, max: number): string {
	const characters = [...text];
	return characters.length > max ? `${characters.slice(0, max - 1).join('')}…` : text;
}
