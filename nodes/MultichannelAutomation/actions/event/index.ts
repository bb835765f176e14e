import type { AutomationClient } from '../../../../src/client';
import { defineResource } from '../../../shared/resources';
import * as getAll from './getAll.operation';
import * as publish from './publish.operation';

/** Events published into the workspace through the inbound endpoint. */
export const event = defineResource<AutomationClient>({
	name: 'Event',
	value: 'event',
	noun: 'event',
	operations: [getAll, publish],
	defaultOperation: publish.option.value,
});
