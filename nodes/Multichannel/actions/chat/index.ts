import type { WorkspaceClient } from '../../../../src/client';
import { defineResource } from '../../../shared/resources';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as giveBack from './giveBack.operation';
import * as handOver from './handOver.operation';
import { searchChats } from './locator';
import * as markRead from './markRead.operation';

/**
 * Chats of an instance: the conversations with people and groups, their unread counts, marking them read, handing
 * them over to a person and back.
 */
export const chat = defineResource<WorkspaceClient>({
	name: 'Chat',
	value: 'chat',
	noun: 'chat',
	operations: [getAll, get, markRead, handOver, giveBack],
	defaultOperation: getAll.option.value,
	listSearch: { searchChats },
});
