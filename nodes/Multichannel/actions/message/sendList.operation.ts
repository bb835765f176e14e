import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { WorkspaceClient } from '../../../../src/client';
import { MAX_LENGTH, PER_MESSAGE } from '../../../../src/client/resources/message-sends';
import type { OperationContext } from '../../../shared/resources';
import * as interactive from './interactive';
import * as send from './send';

export const option = {
	name: 'Send List',
	value: 'sendList',
	action: 'Send a message with a list to choose from',
	description: `Send a text with a button that opens a list of up to ${PER_MESSAGE.listRows.max} rows; the row tapped comes back to the Multichannel Trigger as a received message with "reply"`,
};

/** Rows count across all sections together. */
const { min, max } = PER_MESSAGE.listRows;

const { mode, json } = interactive.inputModes('rowsInput');

export const description: INodeProperties[] = [
	send.fromField,
	send.toField,
	interactive.textField,
	{
		displayName: 'Button Label',
		name: 'buttonText',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. See times',
		description: `The label of the button that opens the list, up to ${MAX_LENGTH.buttonTitle} characters`,
	},
	interactive.inputModeField('rowsInput', 'Rows'),
	{
		displayName: 'Rows',
		name: 'rows',
		type: 'fixedCollection',
		placeholder: 'Add Row',
		default: {},
		required: true,
		displayOptions: mode,
		typeOptions: {
			multipleValues: true,
			sortable: true,
			minRequiredFields: min,
			maxAllowedFields: max,
		},
		description: `Up to ${max} rows in all. Rows with the same Section are shown together under its title, sections in the order they first appear.`,
		options: [
			{
				displayName: 'Row',
				name: 'row',
				values: [
					{
						displayName: 'Title',
						name: 'title',
						type: 'string',
						default: '',
						required: true,
						placeholder: 'e.g. 09:00',
						description: `The text of the row, up to ${MAX_LENGTH.rowTitle} characters`,
					},
					{
						displayName: 'ID',
						name: 'id',
						type: 'string',
						default: '',
						placeholder: 'e.g. slot-0900',
						description:
							'What the reply carries as its ID when this row is tapped; the title when left empty',
					},
					{
						displayName: 'Description',
						name: 'description',
						type: 'string',
						default: '',
						placeholder: 'e.g. With Dr. Silva',
						description: `A line below the title, up to ${MAX_LENGTH.rowDescription} characters`,
					},
					{
						displayName: 'Section',
						name: 'section',
						type: 'string',
						default: '',
						placeholder: 'e.g. Morning',
						description: `The title of the section the row is in, up to ${MAX_LENGTH.rowTitle} characters; needed when rows are in more than one section`,
					},
				],
			},
		],
	},
	{
		displayName: 'Sections (JSON)',
		name: 'sectionsJson',
		type: 'json',
		default:
			'[\n  {\n    "title": "Morning",\n    "rows": [\n      { "id": "slot-0900", "title": "09:00", "description": "With Dr. Silva" }\n    ]\n  }\n]',
		required: true,
		displayOptions: json,
		description:
			'A list of sections, as in the example: each with a title and its rows (ID, title, description); a plain list of rows is one section without a title',
	},
	send.optionsField(interactive.headerAndFooter),
];

export const { scope, readsNumbers, output, concurrent } = send.operationBasics('sendList');

export const fields = {
	...send.fieldNames,
	...interactive.fieldNames,
	'body.buttonText': 'Button Label',
	'body.sections': 'Rows',
	'body.sections.*': 'Section',
	'body.sections.*.title': 'Section Title',
	'body.sections.*.rows': 'Rows',
	'body.sections.*.rows.*': 'Row',
	'body.sections.*.rows.*.id': 'ID',
	'body.sections.*.rows.*.title': 'Title',
	'body.sections.*.rows.*.description': 'Description',
};

interface Row {
	id: string;
	title: string;
	description?: string;
}
interface Section {
	title?: string;
	rows: Row[];
}

/** Rows typed in the editor, grouped into sections by their Section field, in order of first appearance. */
function sectionsOfRows(entries: IDataObject[]): Section[] {
	const sections = new Map<string, Row[]>();
	for (const entry of entries) {
		const section = String(entry.section ?? '').trim();
		const description = String(entry.description ?? '').trim();
		const row = { ...interactive.idOrTitle(entry), ...(description ? { description } : {}) };
		sections.set(section, [...(sections.get(section) ?? []), row]);
	}
	return [...sections].map(([title, rows]) => (title ? { title, rows } : { rows }));
}

/** Sections given as JSON; a plain list of rows (entries without `rows`) is one section. */
function sectionsOfJson(entries: IDataObject[]): IDataObject[] {
	const rowsOnly = entries.length > 0 && entries.every((entry) => entry.rows === undefined);
	return rowsOnly ? [{ rows: entries }] : entries;
}

export async function execute(this: IExecuteFunctions, item: OperationContext<WorkspaceClient>) {
	const { itemIndex } = item;
	const { instanceId, fromEditor, entries, common } = interactive.readInteractive(this, item, {
		mode: 'rowsInput',
		collection: 'rows.row',
		json: 'sectionsJson',
		jsonLabel: 'Sections (JSON)',
	});
	const body = {
		...common,
		buttonText: (this.getNodeParameter('buttonText', itemIndex) as string).trim(),
		// JSON is passed on as given: the contract names any field that is wrong, before sending.
		sections: (fromEditor ? sectionsOfRows(entries) : sectionsOfJson(entries)) as Section[],
	};
	return await send.message(this, item, 'sendList', instanceId, body);
}
