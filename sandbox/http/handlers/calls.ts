import type { api } from '../../../src/client/api';
import { presentCall, rejectCall, requireCall } from '../../channel/calls';
import { requireConnected } from '../../channel/instance-records';
import { conflict } from '../../errors';
import type { ResourceHandlers } from './context';

/** Rejecting a ringing call (what a call is and does: channel/calls.ts). */

export const callHandlers: ResourceHandlers<typeof api.workspace.calls> = {
	reject: ({ core, workspaceId, params, body }) => {
		const call = requireCall(core, workspaceId, params.instanceId, params.callId);
		const instance = requireConnected(core, workspaceId, params.instanceId);
		if (call.status !== 'ringing') {
			throw conflict(
				'call_not_ringing',
				`Call ${call.id} is no longer ringing (status: ${call.status}); only a ringing call can be rejected`,
			);
		}
		rejectCall(core, instance, call, 'api', body.text);
		return presentCall(call);
	},
};
