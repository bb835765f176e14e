import type { WorkspaceClient } from '../../../../src/client';
import { defineResource } from '../../../shared/resources';
import * as add from './add.operation';
import * as check from './check.operation';
import * as getAll from './getAll.operation';
import * as remove from './remove.operation';

/** The workspace's opt-outs: numbers no campaign sends to (a plain message still goes). */
export const optOut = defineResource<WorkspaceClient>({
	name: 'Opt-Out',
	value: 'optOut',
	noun: 'opt-out',
	operations: [add, remove, getAll, check],
	defaultOperation: check.option.value,
});
