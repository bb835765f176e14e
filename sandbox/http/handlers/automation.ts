import type { api } from '../../../src/client/api';
import { newId } from '../../store/store';
import { instant, newestFirst, paginate, type ResourceHandlers } from './context';
import { presentAutomationEvent } from '../../present';

/** Inbound publishing: an event is stored, then fanned out as `automation.<name>` to automation webhooks. */
export const automationEventHandlers: ResourceHandlers<typeof api.automation.events> = {
	publish: ({ core, workspaceId, body }) => {
		const now = core.now().toISOString();
		const event = core.store.insert('automationEvents', {
			id: newId('aev'),
			workspaceId,
			name: body.name,
			type: `automation.${body.name}`,
			payload: body.payload,
			occurredAt: instant(body.occurredAt ?? null) ?? now,
			createdAt: now,
		});
		core.emit(workspaceId, `automation.${body.name}`, presentAutomationEvent(event));
		return presentAutomationEvent(event);
	},

	list: ({ core, workspaceId, query }) => {
		const events = core.store.all(
			'automationEvents',
			(event) =>
				event.workspaceId === workspaceId &&
				(query.name === undefined || event.name === query.name),
		);
		return paginate(newestFirst(events), query, presentAutomationEvent);
	},
};
