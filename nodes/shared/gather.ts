import type { INodeProperties } from 'n8n-workflow';

import {
	GATHER_MAX_MESSAGES,
	GATHER_MAX_WAIT_SECONDS,
	GATHER_QUIET_SECONDS,
	type GatherOptions,
} from '../../src/client';

/**
 * "Gather Messages From the Same Chat", the contract's `gather` of a messaging webhook registration: the service
 * holds a person's messages of one chat and delivers them as one event once the chat has been quiet. The same
 * field in the trigger's options and in the Webhook resource's Create and Update.
 */

export const GATHER_DISPLAY_NAME = 'Gather Messages From the Same Chat';
const QUIET_NAME = 'Quiet Period (Seconds)';
const MAX_WAIT_NAME = 'Max Wait (Seconds)';
const QUIET_DEFAULT = 3;
const MAX_WAIT_DEFAULT = GATHER_MAX_WAIT_SECONDS.default;

/** The fields of a `gather` body as the user sees them, for the service's validation errors. */
export const gatherFieldNames = {
	'body.gather.quietSeconds': `${GATHER_DISPLAY_NAME} › ${QUIET_NAME}`,
	'body.gather.maxWaitSeconds': `${GATHER_DISPLAY_NAME} › ${MAX_WAIT_NAME}`,
};

/** The field, named `gather`; `description` says what the gathered event looks like where it is used. */
export function gatherField(description: string): INodeProperties {
	return {
		displayName: GATHER_DISPLAY_NAME,
		name: 'gather',
		type: 'fixedCollection',
		placeholder: 'Add Gathering',
		// Added to say yes: adding the field gathers, with these values shown at once.
		default: { settings: { quietSeconds: QUIET_DEFAULT, maxWaitSeconds: MAX_WAIT_DEFAULT } },
		description,
		options: [
			{
				displayName: 'Gathering',
				name: 'settings',
				values: [
					{
						displayName: QUIET_NAME,
						name: 'quietSeconds',
						type: 'number',
						default: QUIET_DEFAULT,
						typeOptions: { minValue: GATHER_QUIET_SECONDS.min, maxValue: GATHER_QUIET_SECONDS.max },
						// The editor changes what is out of bounds without a word: the bounds stay in view.
						hint: `From ${GATHER_QUIET_SECONDS.min} to ${GATHER_QUIET_SECONDS.max} seconds`,
						description: `The messages are delivered once the chat has been quiet this long (${GATHER_QUIET_SECONDS.min}–${GATHER_QUIET_SECONDS.max} s)`,
					},
					{
						displayName: MAX_WAIT_NAME,
						name: 'maxWaitSeconds',
						type: 'number',
						default: MAX_WAIT_DEFAULT,
						typeOptions: {
							minValue: GATHER_MAX_WAIT_SECONDS.min,
							maxValue: GATHER_MAX_WAIT_SECONDS.max,
						},
						hint: `From ${GATHER_MAX_WAIT_SECONDS.min} to ${GATHER_MAX_WAIT_SECONDS.max} seconds`,
						description: `The longest the first message waits, however long the chat keeps writing (${GATHER_MAX_WAIT_SECONDS.min}–${GATHER_MAX_WAIT_SECONDS.max} s); ${GATHER_MAX_MESSAGES} messages are delivered at once`,
					},
				],
			},
		],
	};
}

/**
 * Seconds as the field gives them, or as an expression may (`"3"`). Whether they are a whole number within
 * bounds is the client's schema to say (`GatherOptions`): its error names the field as the editor shows it
 * (`gatherFieldNames`) and the item, and nothing is sent.
 */
function seconds(value: unknown, fallback: number): number {
	const given = value ?? fallback;
	const number = typeof given === 'string' && given.trim() !== '' ? Number(given) : NaN;
	return (Number.isNaN(number) ? given : number) as number;
}

/** The registration's `gather` from the field's value; undefined when the field was not added. */
export function gatheringOf(value: unknown): GatherOptions | undefined {
	const settings = (value as { settings?: { quietSeconds?: unknown; maxWaitSeconds?: unknown } })
		?.settings;
	if (!settings || typeof settings !== 'object') return undefined;
	return {
		quietSeconds: seconds(settings.quietSeconds, QUIET_DEFAULT),
		maxWaitSeconds: seconds(settings.maxWaitSeconds, MAX_WAIT_DEFAULT),
	};
}
