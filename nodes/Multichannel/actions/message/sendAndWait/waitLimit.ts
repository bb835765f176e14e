import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { MAX_ANSWER_WAIT_DAYS } from '../../../../../src/client/resources/answers';
import { invalidValue } from '../../../../shared/input-errors';
import type { OperationContext } from '../../../../shared/resources';
import { readDateTime } from '../../../../shared/values';

/** How long Send and Wait for Response waits: its "Limit Wait Time" option, and the deadline read from it. */

const DAY_MS = 24 * 60 * 60 * 1000;
const UNIT_MS: Record<string, number> = { minutes: 60_000, hours: 3_600_000, days: DAY_MS };
const FIELD = 'Limit Wait Time';

/** n8n's own "Limit Wait Time" option (same names and values as its Slack, Gmail and Telegram nodes). */
export const limitWaitTimeOption: INodeProperties = {
	displayName: FIELD,
	name: 'limitWaitTime',
	type: 'fixedCollection',
	description: `Whether to stop waiting after a while: the node then outputs timedOut: true. Without a limit it waits up to ${MAX_ANSWER_WAIT_DAYS} days, the longest the service keeps a question open.`,
	default: { values: { limitType: 'afterTimeInterval', resumeAmount: 45, resumeUnit: 'minutes' } },
	options: [
		{
			displayName: 'Values',
			name: 'values',
			values: [
				{
					displayName: 'Limit Type',
					name: 'limitType',
					type: 'options',
					default: 'afterTimeInterval',
					options: [
						{
							name: 'After Time Interval',
							description: 'Waits for a certain amount of time',
							value: 'afterTimeInterval',
						},
						{
							name: 'At Specified Time',
							description: 'Waits until the set date and time',
							value: 'atSpecifiedTime',
						},
					],
				},
				{
					displayName: 'Amount',
					name: 'resumeAmount',
					type: 'number',
					displayOptions: { show: { limitType: ['afterTimeInterval'] } },
					typeOptions: { minValue: 0, numberPrecision: 2 },
					default: 1,
					description: 'The time to wait',
				},
				{
					displayName: 'Unit',
					name: 'resumeUnit',
					type: 'options',
					displayOptions: { show: { limitType: ['afterTimeInterval'] } },
					options: [
						{ name: 'Minutes', value: 'minutes' },
						{ name: 'Hours', value: 'hours' },
						{ name: 'Days', value: 'days' },
					],
					default: 'hours',
					description: 'Unit of the interval value',
				},
				{
					displayName: 'Max Date and Time',
					name: 'maxDateAndTime',
					type: 'dateTime',
					displayOptions: { show: { limitType: ['atSpecifiedTime'] } },
					default: '',
					description: 'Stop waiting at this date and time',
				},
			],
		},
	],
};

/** When the wait ends: "Limit Wait Time", else the longest the service keeps a question open. */
export function waitUntil(
	context: IExecuteFunctions,
	{ itemIndex, options }: OperationContext<unknown>,
): Date {
	const limit = ((options.limitWaitTime as IDataObject | undefined)?.values ?? {}) as IDataObject;
	const now = Date.now();
	const longest = now + MAX_ANSWER_WAIT_DAYS * DAY_MS;
	if (Object.keys(limit).length === 0) return new Date(longest);
	let until: number;
	if (limit.limitType === 'atSpecifiedTime') {
		until = Date.parse(readDateTime(context, limit.maxDateAndTime, FIELD, itemIndex));
	} else {
		const amount = Number(limit.resumeAmount);
		const unit = UNIT_MS[String(limit.resumeUnit ?? 'hours')];
		if (!Number.isFinite(amount) || amount <= 0 || unit === undefined) {
			throw invalidValue(context.getNode(), FIELD, itemIndex, 'enter an amount above 0');
		}
		until = now + amount * unit;
	}
	if (until <= now || until > longest) {
		throw invalidValue(
			context.getNode(),
			FIELD,
			itemIndex,
			`the wait must end in the future and within ${MAX_ANSWER_WAIT_DAYS} days`,
		);
	}
	return new Date(until);
}
