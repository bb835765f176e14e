import type { WorkspaceClient } from '../../../../src/client';
import { defineResource } from '../../../shared/resources';
import * as connect from './connect.operation';
import * as create from './create.operation';
import * as deleteInstance from './delete.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as getConnectionState from './getConnectionState.operation';
import { searchInstances } from './locator';
import * as logout from './logout.operation';
import * as restart from './restart.operation';
import * as update from './update.operation';

/** Instances: connected channel sessions, one phone number each. */
export const instance = defineResource<WorkspaceClient>({
	name: 'Instance',
	value: 'instance',
	noun: 'instance',
	operations: [
		create,
		get,
		getAll,
		update,
		connect,
		getConnectionState,
		restart,
		logout,
		deleteInstance,
	],
	defaultOperation: getAll.option.value,
	listSearch: { searchInstances },
});
