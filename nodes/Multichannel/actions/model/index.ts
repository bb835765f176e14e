import type { WorkspaceClient } from '../../../../src/client';
import { defineResource } from '../../../shared/resources';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import { searchModels } from './locator';

/** The AI models a workspace can use for automated replies. */
export const model = defineResource<WorkspaceClient>({
	name: 'Model',
	value: 'model',
	noun: 'model',
	operations: [get, getAll],
	defaultOperation: getAll.option.value,
	listSearch: { searchModels },
});
