import type { INodeProperties } from 'n8n-workflow';

import { BATCH_MAX_EVENTS, BATCH_MAX_WAIT_SECONDS, type BatchOptions } from '../../../src/client';
import { triggerOptions } from './parameters';
import type { ChosenOptions } from './spec';

/**
 * "Batch Events" of the Short Link and Automation Triggers, the contract's `batch`: the service holds the events
 * and delivers them together, so that a flood of clicks is a few executions, not one each. The batching happens at
 * the service, so that a batch is claimed, redelivered and run exactly once like any event: n8n has no safe place
 * to hold events between deliveries (queue mode, restarts).
 */

const BATCH_NAME = 'Batch Events';
const MAX_EVENTS_NAME = 'Max Events';
const MAX_WAIT_NAME = 'Max Wait (Seconds)';
const MAX_EVENTS_DEFAULT = 100;
const MAX_WAIT_DEFAULT = 5;

/** The fields of a `batch` body as the user sees them, for the errors of a registration (failure.ts). */
export const batchFieldNames = {
	'body.batch.maxEvents': `${BATCH_NAME} › ${MAX_EVENTS_NAME}`,
	'body.batch.maxWaitSeconds': `${BATCH_NAME} › ${MAX_WAIT_NAME}`,
};

const batchOption: INodeProperties = {
	displayName: BATCH_NAME,
	name: 'batch',
	type: 'fixedCollection',
	placeholder: 'Add Batching',
	// Added to say yes: adding the option batches, with these values shown at once.
	default: { settings: { maxEvents: MAX_EVENTS_DEFAULT, maxWaitSeconds: MAX_WAIT_DEFAULT } },
	description:
		'Deliver the events in batches: one execution per batch, with one item per event (the same item the event makes alone). A batch is delivered once it holds Max Events, or Max Wait after its first event, whichever comes first. For high volumes, such as a campaign link clicked thousands of times.',
	options: [
		{
			displayName: 'Batching',
			name: 'settings',
			values: [
				{
					displayName: MAX_EVENTS_NAME,
					name: 'maxEvents',
					type: 'number',
					default: MAX_EVENTS_DEFAULT,
					typeOptions: { minValue: BATCH_MAX_EVENTS.min, maxValue: BATCH_MAX_EVENTS.max },
					// The editor drops what is out of bounds without a word (5000 typed is 500): the bounds stay in view.
					hint: `From ${BATCH_MAX_EVENTS.min} to ${BATCH_MAX_EVENTS.max} events`,
					description: `A batch is delivered once it holds this many events (${BATCH_MAX_EVENTS.min}–${BATCH_MAX_EVENTS.max})`,
				},
				{
					displayName: MAX_WAIT_NAME,
					name: 'maxWaitSeconds',
					type: 'number',
					default: MAX_WAIT_DEFAULT,
					typeOptions: {
						minValue: BATCH_MAX_WAIT_SECONDS.min,
						maxValue: BATCH_MAX_WAIT_SECONDS.max,
					},
					hint: `From ${BATCH_MAX_WAIT_SECONDS.min} to ${BATCH_MAX_WAIT_SECONDS.max} seconds`,
					description: `The longest the first event of a batch waits (${BATCH_MAX_WAIT_SECONDS.min}–${BATCH_MAX_WAIT_SECONDS.max} s)`,
				},
			],
		},
	],
};

/** The Options of a trigger that batches: the shared ones and Batch Events. */
export const batchingTriggerOptions: INodeProperties = {
	...triggerOptions,
	options: [...(triggerOptions.options ?? []), batchOption],
};

/** A number as the field gives it, or as an expression may (`"5"`); the client's schema checks its bounds. */
function numberOf(value: unknown, fallback: number): number {
	const given = value ?? fallback;
	const number = typeof given === 'string' && given.trim() !== '' ? Number(given) : NaN;
	return (Number.isNaN(number) ? given : number) as number;
}

/** The registration's `batch`, from the option; undefined when the option is not added. */
export function chosenBatching(options: ChosenOptions): BatchOptions | undefined {
	const settings = (
		options.batch as { settings?: { maxEvents?: unknown; maxWaitSeconds?: unknown } }
	)?.settings;
	if (!settings || typeof settings !== 'object') return undefined;
	return {
		maxEvents: numberOf(settings.maxEvents, MAX_EVENTS_DEFAULT),
		maxWaitSeconds: numberOf(settings.maxWaitSeconds, MAX_WAIT_DEFAULT),
	};
}
