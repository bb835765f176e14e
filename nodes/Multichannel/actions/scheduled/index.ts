import type { WorkspaceClient } from '../../../../src/client';
import { defineResource } from '../../../shared/resources';
import * as cancel from './cancel.operation';
import * as getAll from './getAll.operation';

/** Messages sent with Send At, kept by the service until their time: listed, cancelled. */
export const scheduled = defineResource<WorkspaceClient>({
	name: 'Scheduled Message',
	value: 'scheduled',
	noun: 'scheduled message',
	operations: [getAll, cancel],
	defaultOperation: getAll.option.value,
});
