import type { WorkspaceClient } from '../../../../src/client';
import { defineResource } from '../../../shared/resources';
import * as deleteStatus from './delete.operation';
import * as getAll from './getAll.operation';
import * as post from './post.operation';

/** The instance's status (stories): posted for 24 hours, listed with view counts, deleted. */
export const status = defineResource<WorkspaceClient>({
	name: 'Status',
	value: 'status',
	noun: 'status',
	operations: [post, getAll, deleteStatus],
	defaultOperation: post.option.value,
});
