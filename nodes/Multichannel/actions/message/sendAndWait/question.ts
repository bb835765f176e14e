import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	MAX_LENGTH,
	PER_MESSAGE,
	SendList,
} from '../../../../../src/client/resources/message-sends';
import { invalidValue } from '../../../../shared/input-errors';
import { APPROVE_ID, DECLINE_ID, type ResponseType } from './answer';
import { idOrTitle } from '../interactive';
import { reviewText } from './review';

/**
 * The question Send and Wait for Response asks: the fields of its approval buttons and choices, and the message
 * built from them (a text, reply buttons or a list), within the contract's limits for those messages.
 */

const MAX_BUTTONS = PER_MESSAGE.replyButtons.max;
/** Every choice is a row of one list. */
export const MAX_CHOICES = PER_MESSAGE.listRows.max;

const choiceFormats = [
	{ name: `Buttons (Up to ${MAX_BUTTONS})`, value: 'buttons' },
	{ name: `List (Up to ${MAX_CHOICES})`, value: 'list' },
];

export const fields: INodeProperties[] = [
	{
		displayName: 'Approval Options',
		name: 'approvalOptions',
		type: 'fixedCollection',
		placeholder: 'Add option',
		default: {},
		displayOptions: { show: { responseType: ['approval'] } },
		options: [
			{
				displayName: 'Values',
				name: 'values',
				values: [
					{
						displayName: 'Type of Approval',
						name: 'approvalType',
						type: 'options',
						default: 'double',
						options: [
							{ name: 'Approve Only', value: 'single' },
							{ name: 'Approve and Decline', value: 'double' },
						],
					},
					{
						displayName: 'Approve Button Label',
						name: 'approveLabel',
						type: 'string',
						default: 'Approve',
					},
					{
						displayName: 'Decline Button Label',
						name: 'disapproveLabel',
						type: 'string',
						default: 'Decline',
						displayOptions: { show: { approvalType: ['double'] } },
					},
				],
			},
		],
	},
	{
		displayName: 'Choices',
		name: 'choices',
		type: 'fixedCollection',
		placeholder: 'Add Choice',
		default: {},
		typeOptions: {
			multipleValues: true,
			sortable: true,
			minRequiredFields: 2,
			maxAllowedFields: MAX_CHOICES,
		},
		displayOptions: { show: { responseType: ['choice'] } },
		description: `2 to ${MAX_CHOICES} options; the one tapped is the answer`,
		options: [
			{
				displayName: 'Choice',
				name: 'values',
				values: [
					{
						displayName: 'Title',
						name: 'title',
						type: 'string',
						default: '',
						placeholder: 'e.g. Tomorrow morning',
						description: `What the contact sees: up to ${MAX_LENGTH.buttonTitle} characters on a button, ${MAX_LENGTH.rowTitle} in a list`,
					},
					{
						displayName: 'ID',
						name: 'id',
						type: 'string',
						default: '',
						placeholder: 'e.g. slot-am',
						description: 'What the output names as answer.ID; the title when empty',
					},
					{
						displayName: 'Description',
						name: 'description',
						type: 'string',
						default: '',
						description: `A line under the title (lists only), up to ${MAX_LENGTH.rowDescription} characters`,
					},
				],
			},
		],
	},
	{
		displayName: 'Show Choices As',
		name: 'choiceFormat',
		type: 'options',
		default: 'list',
		displayOptions: { show: { responseType: ['choice'] } },
		options: choiceFormats,
	},
	{
		displayName: 'List Button Label',
		name: 'listButtonText',
		type: 'string',
		default: 'Choose',
		displayOptions: { show: { responseType: ['choice'], choiceFormat: ['list'] } },
		description: `The label of the button that opens the list, up to ${MAX_LENGTH.buttonTitle} characters`,
	},
];

interface Choice {
	id: string;
	title: string;
	description?: string;
}

/** The message that asks, by the client's operation that sends it. */
export type Question =
	| { operation: 'sendText'; body: { to: string; text: string } }
	| { operation: 'sendButtons'; body: { to: string; text: string; buttons: Choice[] } }
	| {
			operation: 'sendList';
			body: { to: string; text: string; buttonText: string; sections: Array<{ rows: Choice[] }> };
	  };

/** The message that asks, by response type. */
export function questionOf(
	context: IExecuteFunctions,
	itemIndex: number,
	responseType: ResponseType,
	to: string,
): Question {
	const text = reviewText(
		context,
		itemIndex,
		context.getNodeParameter('message', itemIndex) as string,
	);
	if (responseType === 'freeText') return { operation: 'sendText', body: { to, text } };
	if (responseType === 'approval') {
		const values = context.getNodeParameter('approvalOptions.values', itemIndex, {}) as IDataObject;
		const buttons = [{ id: APPROVE_ID, title: String(values.approveLabel ?? 'Approve') }];
		if ((values.approvalType ?? 'double') === 'double') {
			buttons.push({ id: DECLINE_ID, title: String(values.disapproveLabel ?? 'Decline') });
		}
		return { operation: 'sendButtons', body: { to, text, buttons } };
	}
	const choices = choicesOf(context, itemIndex);
	if (context.getNodeParameter('choiceFormat', itemIndex) === 'buttons') {
		if (choices.length > MAX_BUTTONS) {
			throw invalidValue(
				context.getNode(),
				'Show Choices As',
				itemIndex,
				`buttons hold up to ${MAX_BUTTONS} choices (found ${choices.length}); show them as a list`,
			);
		}
		return {
			operation: 'sendButtons',
			body: { to, text, buttons: choices.map(({ id, title }) => ({ id, title })) },
		};
	}
	const buttonText = context.getNodeParameter('listButtonText', itemIndex) as string;
	return { operation: 'sendList', body: { to, text, buttonText, sections: [{ rows: choices }] } };
}

/** The choices typed in the editor, each with its id (the title when empty); refused here in Choices' terms. */
function choicesOf(context: IExecuteFunctions, itemIndex: number): Choice[] {
	const entries = context.getNodeParameter('choices.values', itemIndex, []) as IDataObject[];
	const choices = entries.map((entry) => {
		const description = String(entry.description ?? '').trim();
		return { ...idOrTitle(entry), ...(description === '' ? {} : { description }) };
	});
	const refuse = (problem: string) =>
		invalidValue(context.getNode(), 'Choices', itemIndex, problem);
	if (choices.length < 2 || choices.length > MAX_CHOICES) {
		throw refuse(`add 2 to ${MAX_CHOICES} (found ${choices.length})`);
	}
	// The first mistake in the order of the choices: a missing title, or an id an earlier choice has.
	const untitled = choices.findIndex((choice) => choice.title === '');
	const repeated = repeatedIdAt(choices);
	if (untitled >= 0 && (repeated === undefined || untitled <= repeated)) {
		throw refuse(`choice ${untitled + 1} has no title`);
	}
	if (repeated !== undefined) throw refuse(`"${choices[repeated].id}" is used by two choices`);
	return choices;
}

/**
 * The first choice whose id an earlier one has, by the contract's own rule for a list's rows (a tap names only
 * the id, so the ids of one message must differ); the same rule holds for buttons.
 */
function repeatedIdAt(choices: Choice[]): number | undefined {
	const rows = choices.map(({ id, title }) => ({ id, title }));
	const issues = SendList.shape.sections.safeParse([{ rows }]).error?.issues ?? [];
	const issue = issues.find(
		(found) => found.code === 'custom' && found.path[found.path.length - 1] === 'id',
	);
	return issue === undefined ? undefined : Number(issue.path[2]);
}
