import { operation } from '../../../src/client/operation';
import { Message } from '../../../src/client/resources/messages';
import { pathParams } from '../../../src/client/schemas';
import { presentScheduled, requireScheduled } from '../../channel/scheduled';
import { conflict } from '../../errors';
import type { ResourceHandlers } from './context';

/**
 * Sandbox only: a scheduled send's time brought to now, as if a person had waited for it. The service takes
 * sends a minute ahead at least; this lets the console and the tests see one go without waiting that minute.
 * The send still goes by the check on the sandbox's clock, the same path as one whose time came.
 */

export const scheduledDueOperations = {
	dueNow: operation({
		method: 'POST',
		path: '/sandbox/instances/{instanceId}/scheduled-messages/{messageId}/due-now',
		summary:
			"Sandbox only: a scheduled send's time becomes now; the sandbox's next check (within a second) sends it as at its time. Answers it as it stands",
		scope: 'messaging:write',
		params: pathParams('instanceId', 'messageId'),
		response: Message,
		status: 200,
	}),
};

export const scheduledDueHandlers: ResourceHandlers<typeof scheduledDueOperations> = {
	dueNow: ({ core, workspaceId, params }) => {
		const record = requireScheduled(core, workspaceId, params.instanceId, params.messageId);
		if (record.status !== 'scheduled') {
			throw conflict(
				record.status === 'sent' ? 'already_sent' : 'already_cancelled',
				`Message ${record.id} was ${record.status} at ${record.sentAt ?? record.cancelledAt ?? record.updatedAt}; only a send still to go can be brought to now`,
			);
		}
		const now = core.now().toISOString();
		record.sendAt = now;
		record.updatedAt = now;
		return presentScheduled(core, record);
	},
};
