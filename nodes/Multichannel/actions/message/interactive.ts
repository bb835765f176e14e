import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';

import type { WorkspaceClient } from '../../../../src/client';
import type { OperationContext } from '../../../shared/resources';
import { compact, readJsonList } from '../../../shared/values';
import * as send from './send';
import { MAX_LENGTH } from '../../../../src/client/resources/message-sends';

/**
 * What Send Buttons and Send List share: the body text, header and footer of an interactive message, the
 * choice between entering the buttons or rows in the editor and giving them as JSON (for expressions), and
 * the field names the service's limits are reported under. The limits themselves are checked once, by the
 * contract's schemas, before anything is sent.
 */

export const textField: INodeProperties = {
	displayName: 'Text',
	name: 'text',
	type: 'string',
	default: '',
	required: true,
	typeOptions: { rows: 3 },
	placeholder: 'e.g. Is Tuesday at 10:00 still good for you?',
	description: `The body of the message, up to ${MAX_LENGTH.interactiveBody} characters`,
};

/** Header and footer, offered in the Options collection of both operations. */
export const headerAndFooter: INodeProperties[] = [
	{
		displayName: 'Header',
		name: 'header',
		type: 'string',
		default: '',
		placeholder: 'e.g. Your appointment',
		description: `A line of bold text above the body, up to ${MAX_LENGTH.headerOrFooter} characters`,
	},
	{
		displayName: 'Footer',
		name: 'footer',
		type: 'string',
		default: '',
		placeholder: 'e.g. Dental Care Co.',
		description: `A line of small text below the body, up to ${MAX_LENGTH.headerOrFooter} characters`,
	},
];

/** "Using Fields Below" or "Using JSON", for the buttons or the rows of one operation. */
export function inputModeField(name: string, what: string): INodeProperties {
	return {
		displayName: `Define ${what}`,
		name,
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Using Fields Below', value: 'fields' },
			{
				name: 'Using JSON',
				value: 'json',
				description: `Give the ${what.toLowerCase()} as JSON, e.g. from an expression`,
			},
		],
		default: 'fields',
	};
}

/** When the entries' fields and when their JSON field are shown, by the "Define …" field named `name`. */
export function inputModes(name: string): { mode: IDisplayOptions; json: IDisplayOptions } {
	return { mode: { show: { [name]: ['fields'] } }, json: { show: { [name]: ['json'] } } };
}

/** Where an operation's entries are: its "Define …" field, its fixedCollection, its JSON field and that one's name. */
interface ChoiceInput {
	mode: string;
	collection: string;
	json: string;
	jsonLabel: string;
}

/**
 * What both sends read for an item: the instance, the entries (buttons or rows) and whether they came from the
 * editor, and the body's common part: recipient, text, header, footer and reply-to.
 */
export function readInteractive(
	context: IExecuteFunctions,
	item: OperationContext<WorkspaceClient>,
	input: ChoiceInput,
) {
	const { itemIndex, options } = item;
	const { instanceId, to } = send.target(context, item);
	return {
		instanceId,
		...choiceEntries(context, itemIndex, input),
		common: {
			to,
			text: context.getNodeParameter('text', itemIndex) as string,
			...compact({
				header: (options.header as string | undefined)?.trim(),
				footer: (options.footer as string | undefined)?.trim(),
			}),
			...send.quoted(item.options),
		},
	};
}

/**
 * The entries of a list given either in the editor (a fixedCollection's entries) or as JSON (text, or a list
 * from an expression). JSON entries are passed on as they are: the contract names any wrong field.
 */
function choiceEntries(
	context: IExecuteFunctions,
	itemIndex: number,
	input: ChoiceInput,
): { fromEditor: boolean; entries: IDataObject[] } {
	if (context.getNodeParameter(input.mode, itemIndex, 'fields') === 'json') {
		const value = context.getNodeParameter(input.json, itemIndex);
		return {
			fromEditor: false,
			entries: readJsonList(context, value, input.jsonLabel, itemIndex),
		};
	}
	return {
		fromEditor: true,
		entries: context.getNodeParameter(input.collection, itemIndex, []) as IDataObject[],
	};
}

/** An id typed in the editor, or the title when it was left empty. */
export function idOrTitle(entry: IDataObject): { id: string; title: string } {
	const title = String(entry.title ?? '').trim();
	const id = String(entry.id ?? '').trim();
	return { id: id === '' ? title : id, title };
}

/** Field names of an interactive send's request, as the user sees them. */
export const fieldNames = {
	'body.text': 'Text',
	'body.header': 'Header',
	'body.footer': 'Footer',
};
