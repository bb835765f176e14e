import type { api } from '../../../src/client/api';
import { findOptOut, optIn, optOut, optOutsOf, presentOptOut } from '../../campaigns/opt-outs';
import { paginate, type ResourceHandlers } from './context';

/** The workspace's opt-out list (sandbox/campaigns/opt-outs.ts). */
export const optOutHandlers: ResourceHandlers<typeof api.workspace.optOuts> = {
	add: ({ core, workspaceId, body }) => {
		const record = optOut(core, workspaceId, body.phone, {
			source: 'api',
			campaignId: null,
			instanceId: null,
			reason: body.reason ?? null,
		});
		return presentOptOut(body.phone, record);
	},

	remove: ({ core, workspaceId, params }) => {
		optIn(core, workspaceId, params.phone);
		return presentOptOut(params.phone, undefined);
	},

	get: ({ core, workspaceId, params }) =>
		presentOptOut(params.phone, findOptOut(core, workspaceId, params.phone)),

	list: ({ core, workspaceId, query }) =>
		paginate(optOutsOf(core, workspaceId), query, (record) => presentOptOut(record.phone, record)),
};
