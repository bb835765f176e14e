import type { INodeProperties } from 'n8n-workflow';

import type { GatherOptions } from '../../src/client';
import { gatherField, gatheringOf } from '../shared/gather';
import type { ChosenOptions } from '../shared/trigger';

/**
 * The trigger's "Gather Messages From the Same Chat" option (nodes/shared/gather.ts). The gathering happens at
 * the service, so that the event is claimed, redelivered and run exactly once like any other: n8n has no safe
 * place to hold messages between deliveries (queue mode, restarts).
 */

export const gatherOption: INodeProperties = gatherField(
	'Whether the messages a person sends in one chat in quick succession start the workflow once, together: one item whose data.messages holds them in order (data.gathered is true). Taps on buttons or lists, answers taken by Send and Wait, messages of a chat a person is handling (handed over) and other events still start it alone, at once. With Download Media the files are in the binary fields data, data_1, data_2 … in the order of the messages, and each message with a file names its field in "binaryField".',
);

/** The registration's `gather`, from the option; undefined when the option is not added. */
export function chosenGathering(options: ChosenOptions): GatherOptions | undefined {
	return gatheringOf(options.gather);
}
