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

const MAX_EVENTS_DEFAULT = 100;
const MAX_WAIT_DEFAULT = 5;

const batchOption: INodeProperties = {
	displayName: 'Batch Events',
	name: 'batch',
	type: 'fixedCollection',
	placeholder: 'Add Batching',
	// Added to say yes: adding the option batches, with these values shown at once.
	default: { settings: { maxEvents: MAX_EVENTS_DEFAULT, maxWaitSeconds: MAX_WAIT_DEFAULT } },
	description:
		'Whether the service delivers the events together: one execution per batch, one item per event (the same item the event makes alone), once the batch holds Max Events or Max Wait after its first event. For high volumes (a campaign link clicked thousands of times).',
	options: [
		{
			displayName: 'Batching',
			name: 'settings',
			values: [
				{
					displayName: 'Max Events',
					name: 'maxEvents',
					type: 'number',
					default: MAX_EVENTS_DEFAULT,
					typeOptions: { minValue: BATCH_MAX_EVENTS.min, maxValue: BATCH_MAX_EVENTS.max },
					description: `A batch is delivered once it holds this many events (${BATCH_MAX_EVENTS.min}–${BATCH_MAX_EVENTS.max})`,
				},
				{
					displayName: 'Max Wait (Seconds)',
					name: 'maxWaitSeconds',
					type: 'number',
					default: MAX_WAIT_DEFAULT,
					typeOptions: {
						minValue: BATCH_MAX_WAIT_SECONDS.min,
						maxValue: BATCH_MAX_WAIT_SECONDS.max,
					},
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
