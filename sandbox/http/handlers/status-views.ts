import { z } from 'zod/v4';

import { operation } from '../../../src/client/operation';
import { Status } from '../../../src/client/resources/statuses';
import { pathParams, PhoneNumber } from '../../../src/client/schemas';
import type { ResourceHandlers } from './context';
import { MAX_VIEWERS, presentStatus, requireStatus } from './statuses';

/** Sandbox only: a contact views one of the instance's statuses, so that its view count moves. */

export const statusViewOperations = {
	viewStatus: operation({
		method: 'POST',
		path: '/sandbox/instances/{instanceId}/statuses/{statusId}/view',
		summary:
			'Sandbox only: a contact views a status of the instance; each contact counts once (up to 1,000 viewers kept)',
		scope: 'messaging:write',
		params: pathParams('instanceId', 'statusId'),
		body: z.strictObject({ from: PhoneNumber.describe('The number of the contact who views it') }),
		response: Status,
		status: 200,
	}),
};

export const statusViewHandlers: ResourceHandlers<typeof statusViewOperations> = {
	viewStatus: ({ core, workspaceId, params, body }) => {
		const status = requireStatus(core, workspaceId, params.instanceId, params.statusId);
		if (!status.viewers.includes(body.from) && status.viewers.length < MAX_VIEWERS) {
			status.viewers = [...status.viewers, body.from];
		}
		return presentStatus(status);
	},
};
