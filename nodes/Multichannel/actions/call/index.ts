import type { WorkspaceClient } from '../../../../src/client';
import { defineResource } from '../../../shared/resources';
import * as reject from './reject.operation';

/** Calls to an instance's number: reject a ringing one (Instance → Update rejects them all). */
export const call = defineResource<WorkspaceClient>({
	name: 'Call',
	value: 'call',
	noun: 'call',
	operations: [reject],
	defaultOperation: reject.option.value,
});
