import type { api } from '../../../src/client/api';
import { requireMessage } from '../../channel/instance-records';
import { pollResults } from '../../channel/polls';
import type { ResourceHandlers } from './context';

/** A poll's results (how votes are cast and counted: channel/polls.ts). */

export const pollHandlers: ResourceHandlers<typeof api.workspace.polls> = {
	getResults: ({ core, workspaceId, params }) =>
		pollResults(requireMessage(core, workspaceId, params.instanceId, params.messageId)),
};
