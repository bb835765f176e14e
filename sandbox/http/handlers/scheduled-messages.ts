import type { api } from '../../../src/client/api';
import { cancelScheduled, presentScheduled, requireScheduled } from '../../channel/scheduled';
import { chatIdNamed } from '../../channel/people';
import { paginate, type ResourceHandlers } from './context';
import { requireInstance } from '../../channel/instance-records';

/** Scheduled sends: listed (those to go first, the next first; then the others, latest first) and cancelled. */
export const scheduledMessageHandlers: ResourceHandlers<typeof api.workspace.scheduledMessages> = {
	list: ({ core, workspaceId, params, query }) => {
		const instance = requireInstance(core, workspaceId, params.instanceId);
		const chatId =
			query.chatId === undefined
				? undefined
				: chatIdNamed(core, instance, query.chatId, 'query.chatId');
		const records = core.store.all(
			'scheduledMessages',
			(record) =>
				record.workspaceId === workspaceId &&
				record.instanceId === instance.id &&
				(query.status === undefined || record.status === query.status) &&
				(chatId === undefined || record.chatId === chatId),
		);
		const pending = records
			.filter((record) => record.status === 'scheduled')
			.sort((a, b) => Date.parse(a.sendAt) - Date.parse(b.sendAt));
		const finished = records
			.filter((record) => record.status !== 'scheduled')
			.sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt));
		return paginate([...pending, ...finished], query, (record) => presentScheduled(core, record));
	},

	cancel: ({ core, workspaceId, params }) =>
		cancelScheduled(core, requireScheduled(core, workspaceId, params.instanceId, params.messageId)),
};
