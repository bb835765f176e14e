import type { WorkspaceClient } from '../../../../src/client';
import { defineResource } from '../../../shared/resources';
import * as addToChat from './addToChat.operation';
import * as create from './create.operation';
import * as deleteLabel from './delete.operation';
import * as getAll from './getAll.operation';
import { searchLabels } from './locator';
import * as removeFromChat from './removeFromChat.operation';
import * as update from './update.operation';

/** The workspace's labels for chats (name, colour): made, changed, put on and taken off chats. */
export const label = defineResource<WorkspaceClient>({
	name: 'Label',
	value: 'label',
	noun: 'label',
	operations: [create, getAll, update, deleteLabel, addToChat, removeFromChat],
	defaultOperation: getAll.option.value,
	listSearch: { searchLabels },
});
