import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { z } from '../../../../src/client/zod';
import type { WorkspaceClient } from '../../../../src/client';
import { CAMPAIGN_LIMITS } from '../../../../src/client/resources/campaigns';
import { readPersonNumber } from '../../../shared/phone';
import type { OperationContext } from '../../../shared/resources';
import { splitList } from '../../../shared/values';

/**
 * Campaign → Create's recipients: every input item is one, its number read by the node's one phone rule and its
 * variables taken from the item. A number that cannot be read is reported for its item, not sent, and does not
 * stop the others; the service's own result for each recipient (accepted, duplicate, invalid…) is reported too.
 */

/** The longest variable name and value the service takes; a field past either is left out of the variables. */
const MAX_VARIABLE_NAME = 50;
const MAX_VARIABLE_VALUE = 1_000;

export const recipientFields: INodeProperties[] = [
	{
		displayName: 'To',
		name: 'to',
		type: 'string',
		default: '={{ $json.phone }}',
		required: true,
		placeholder: 'e.g. +14155550123',
		description:
			"Each input item is one recipient of the campaign: its phone number, with its country code or as written in the Default Country (a person's chat ID is read as their number). An item whose number cannot be read is not added, and the output names it in notAdded with its item index; the others still go.",
	},
	{
		displayName: 'Variables',
		name: 'variables',
		type: 'options',
		default: 'allFields',
		options: [
			{
				name: 'All Text and Number Fields',
				value: 'allFields',
				description: "The item's top-level fields whose value is a text or a number",
			},
			{ name: 'Chosen Fields', value: 'chosenFields', description: 'Only the fields named below' },
			{ name: 'None', value: 'none' },
		],
		description:
			"Each recipient's values for the message's placeholders: a field name of the item fills {{name}} (a name of at most 50 characters, a value of at most 1,000; longer ones are left out). A recipient without a value the message uses is not added (invalid, missing_variable).",
	},
	{
		displayName: 'Fields to Use',
		name: 'variableFields',
		type: 'string',
		default: '',
		required: true,
		displayOptions: { show: { variables: ['chosenFields'] } },
		placeholder: 'e.g. name, city',
		description: "The item's top-level fields to take as variables, separated by commas",
	},
];

export const recipientFieldNames = { 'body.recipients': 'To', variableFields: 'Fields to Use' };

type Recipient = { to: string; variables?: Record<string, string> };
/** A recipient read from an input item. */
interface ItemRecipient {
	itemIndex: number;
	recipient: Recipient;
}

/** What the service answered for each recipient; `unreadable` is the node's own: never sent. */
const RESULTS = [
	'accepted',
	'duplicate',
	'invalid',
	'opted_out',
	'closed',
	'refused',
	'unreadable',
] as const;
type Result = (typeof RESULTS)[number];
/** The results a person must look at: the recipient was not added, and will not be sent to. */
const NOT_ADDED: Result[] = ['invalid', 'closed', 'refused', 'unreadable'];

const NotAdded = z.object({
	itemIndex: z.number().int().describe('The input item'),
	to: z
		.string()
		.describe('The number as sent (E.164), or as the item gave it when it could not be read'),
	result: z.enum(['invalid', 'closed', 'refused', 'unreadable']),
	reason: z.string().nullable(),
});

/** What Create outputs beside the campaign: the result of each input item, counted, and those not added. */
export const RecipientSummary = {
	created: z
		.boolean()
		.describe('false: the campaign already existed (a re-run), and only new recipients were added'),
	added: z.object(
		Object.fromEntries(RESULTS.map((result) => [result, z.number().int()])) as Record<
			Result,
			z.ZodNumber
		>,
	),
	notAdded: z.array(NotAdded),
};

/** A value of the item that may be a variable: a text or a finite number, within the service's bounds. */
function variableValue(value: unknown): string | undefined {
	const text =
		typeof value === 'string'
			? value
			: typeof value === 'number' && Number.isFinite(value)
				? String(value)
				: undefined;
	return text !== undefined && [...text].length <= MAX_VARIABLE_VALUE ? text : undefined;
}

/** The item's variables: its fields (all, or the chosen ones) that can be one. */
function variablesOf(json: IDataObject, names: string[] | undefined): Record<string, string> {
	const variables: Record<string, string> = {};
	for (const name of names ?? Object.keys(json)) {
		const value = variableValue(json[name]);
		if (value !== undefined && name !== '' && [...name].length <= MAX_VARIABLE_NAME) {
			variables[name] = value;
		}
	}
	return variables;
}

/** To as `={{ $json.phone }}` (its default) or `={{ $json.contact.phone }}`: a plain field of the item. */
const PLAIN_FIELD = /^=\{\{\s*\$json((?:\.[A-Za-z_$][\w$]*)+)\s*\}\}$/;

/**
 * How each item's To is read. A plain field of the item is read from the item itself: n8n's evaluator costs about
 * 0.15 ms of CPU an item (its sandbox, its proxies), which for 100,000 recipients is most of what Create costs
 * n8n, for the same value. Any other value or expression is evaluated by n8n, item by item.
 */
function readerOfTo(context: IExecuteFunctions): (itemIndex: number, json: IDataObject) => unknown {
	const given = context.getNode().parameters.to;
	const path =
		typeof given === 'string' ? PLAIN_FIELD.exec(given)?.[1].slice(1).split('.') : undefined;
	if (!path) return (itemIndex) => context.getNodeParameter('to', itemIndex, '');
	return (_itemIndex, json) =>
		path.reduce<unknown>(
			(value, key) =>
				value !== null && typeof value === 'object' ? (value as IDataObject)[key] : undefined,
			json,
		);
}

/** The recipients of every input item, and the items whose number cannot be read. */
export function readRecipients(
	context: IExecuteFunctions,
	{ defaultCountry }: OperationContext<WorkspaceClient>,
): { recipients: ItemRecipient[]; unreadable: Array<z.infer<typeof NotAdded>> } {
	const mode = context.getNodeParameter('variables', 0, 'allFields') as string;
	const chosen =
		mode === 'chosenFields'
			? splitList(context.getNodeParameter('variableFields', 0, ''))
			: mode === 'none'
				? []
				: undefined;
	const recipients: ItemRecipient[] = [];
	const unreadable: Array<z.infer<typeof NotAdded>> = [];
	const toOf = readerOfTo(context);
	context.getInputData().forEach((item, itemIndex) => {
		const to = toOf(itemIndex, item.json);
		const number = readPersonNumber(to, defaultCountry);
		if ('problem' in number) {
			const reason = [number.problem, number.hint].filter(Boolean).join('. ');
			unreadable.push({ itemIndex, to: String(to ?? ''), result: 'unreadable', reason });
			return;
		}
		const variables = variablesOf(item.json, chosen);
		recipients.push({
			itemIndex,
			recipient:
				Object.keys(variables).length > 0
					? { to: number.number, variables }
					: { to: number.number },
		});
	});
	return { recipients, unreadable };
}

/** The recipients in calls of at most what one call takes. */
export function inCalls(recipients: ItemRecipient[]): ItemRecipient[][] {
	const calls: ItemRecipient[][] = [];
	for (let at = 0; at < recipients.length; at += CAMPAIGN_LIMITS.recipientsPerCall) {
		calls.push(recipients.slice(at, at + CAMPAIGN_LIMITS.recipientsPerCall));
	}
	return calls;
}

/** Counts each result over every call, and keeps the items not added. */
export class RecipientResults {
	private readonly counts = Object.fromEntries(RESULTS.map((result) => [result, 0])) as Record<
		Result,
		number
	>;
	private readonly notAdded: Array<z.infer<typeof NotAdded>> = [];

	constructor(unreadable: Array<z.infer<typeof NotAdded>>) {
		for (const entry of unreadable) this.record(entry);
	}

	/** The service's answer to one call: a result per recipient, in the order they were sent. */
	add(sent: ItemRecipient[], answered: Array<{ result: string; reason: string | null }>): void {
		sent.forEach(({ itemIndex, recipient }, index) => {
			const { result, reason } = answered[index] ?? { result: 'invalid', reason: 'no answer' };
			this.record({ itemIndex, to: recipient.to, result: result as Result, reason });
		});
	}

	private record(entry: { itemIndex: number; to: string; result: Result; reason: string | null }) {
		this.counts[entry.result] = (this.counts[entry.result] ?? 0) + 1;
		if (NOT_ADDED.includes(entry.result)) {
			this.notAdded.push({ ...entry, result: entry.result as z.infer<typeof NotAdded>['result'] });
		}
	}

	summary() {
		return {
			added: this.counts,
			notAdded: [...this.notAdded].sort((a, b) => a.itemIndex - b.itemIndex),
		};
	}
}
