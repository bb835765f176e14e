import type { WorkspaceClient } from '../../../../src/client';
import { defineResource } from '../../../shared/resources';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import { searchChats } from './locator';
import * as markRead from './markRead.operation';

/** Chats of an instance: the conversations with people and groups, their unread counts, marking them read. */
export const chat = defineResource<WorkspaceClient>({
	name: 'Chat',
	value: 'chat',
	noun: 'chat',
	operations: [getAll, get, markRead],
	defaultOperation: getAll.option.value,
	listSearch: { searchChats },
});
