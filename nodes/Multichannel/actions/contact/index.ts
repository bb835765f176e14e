import type { WorkspaceClient } from '../../../../src/client';
import { defineResource } from '../../../shared/resources';
import * as block from './block.operation';
import * as checkNumbers from './checkNumbers.operation';
import * as create from './create.operation';
import * as deleteContact from './delete.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import { searchContacts } from './locator';
import * as unblock from './unblock.operation';
import * as update from './update.operation';

/** Contacts of an instance, and whether numbers are on the channel at all. */
export const contact = defineResource<WorkspaceClient>({
	name: 'Contact',
	value: 'contact',
	noun: 'contact',
	operations: [checkNumbers, get, getAll, create, update, deleteContact, block, unblock],
	defaultOperation: getAll.option.value,
	listSearch: { searchContacts },
});
