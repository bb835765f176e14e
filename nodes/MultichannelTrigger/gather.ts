import { NodeOperationError, type INodeProperties } from 'n8n-workflow';

import {
	GATHER_MAX_MESSAGES,
	GATHER_MAX_WAIT_SECONDS,
	GATHER_QUIET_SECONDS,
	type GatherOptions,
} from '../../src/client';
import type { TriggerContext } from '../shared/trigger';

/**
 * The trigger's "Gather Messages From the Same Chat" option: the service holds a person's messages of one chat
 * and delivers them as one event once the chat has been quiet (the contract's `gather` registration option).
 * The gathering happens at the service, so that the event is claimed, redelivered and run exactly once like
 * any other: n8n has no safe place to hold messages between deliveries (queue mode, restarts).
 */

const QUIET_DEFAULT = 3;
const MAX_WAIT_DEFAULT = GATHER_MAX_WAIT_SECONDS.default;

export const gatherOption: INodeProperties = {
	displayName: 'Gather Messages From the Same Chat',
	name: 'gather',
	type: 'fixedCollection',
	placeholder: 'Add Gathering',
	// Added to say yes: adding the option gathers, with these values shown at once.
	default: { settings: { quietSeconds: QUIET_DEFAULT, maxWaitSeconds: MAX_WAIT_DEFAULT } },
	description:
		'Whether the messages a person sends in one chat in quick succession start the workflow once, together: one item whose data.messages holds them in order (data.gathered is true). Taps on buttons or lists, answers taken by Send and Wait and other events still start it alone. With Download Media the files are in the binary fields data, data_1, data_2 … in the order of the messages, and each message with a file names its field in "binaryField".',
	options: [
		{
			displayName: 'Gathering',
			name: 'settings',
			values: [
				{
					displayName: 'Quiet Period (Seconds)',
					name: 'quietSeconds',
					type: 'number',
					default: QUIET_DEFAULT,
					typeOptions: { minValue: GATHER_QUIET_SECONDS.min, maxValue: GATHER_QUIET_SECONDS.max },
					description: `The messages are delivered once the chat has been quiet this long (${GATHER_QUIET_SECONDS.min}–${GATHER_QUIET_SECONDS.max} s)`,
				},
				{
					displayName: 'Max Wait (Seconds)',
					name: 'maxWaitSeconds',
					type: 'number',
					default: MAX_WAIT_DEFAULT,
					typeOptions: {
						minValue: GATHER_MAX_WAIT_SECONDS.min,
						maxValue: GATHER_MAX_WAIT_SECONDS.max,
					},
					description: `The longest the first message waits, however long the chat keeps writing (${GATHER_MAX_WAIT_SECONDS.min}–${GATHER_MAX_WAIT_SECONDS.max} s); ${GATHER_MAX_MESSAGES} messages are delivered at once`,
				},
			],
		},
	],
};

/** A whole number of seconds within bounds, or the error naming the field. */
function seconds(
	context: TriggerContext,
	field: string,
	value: unknown,
	bounds: { min: number; max: number },
): number {
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (
		typeof number !== 'number' ||
		!Number.isInteger(number) ||
		number < bounds.min ||
		number > bounds.max
	) {
		throw new NodeOperationError(
			context.getNode(),
			`Invalid value for "Gather Messages From the Same Chat › ${field}": a whole number of seconds from ${bounds.min} to ${bounds.max}`,
		);
	}
	return number;
}

/** The registration's `gather`, from the option; undefined when the option is not added. */
export function chosenGathering(context: TriggerContext): GatherOptions | undefined {
	const option = context.getNodeParameter('options.gather', {}) as {
		settings?: { quietSeconds?: unknown; maxWaitSeconds?: unknown };
	};
	const settings = option?.settings;
	if (!settings || typeof settings !== 'object') return undefined;
	return {
		quietSeconds: seconds(
			context,
			'Quiet Period (Seconds)',
			settings.quietSeconds ?? QUIET_DEFAULT,
			GATHER_QUIET_SECONDS,
		),
		maxWaitSeconds: seconds(
			context,
			'Max Wait (Seconds)',
			settings.maxWaitSeconds ?? MAX_WAIT_DEFAULT,
			GATHER_MAX_WAIT_SECONDS,
		),
	};
}
