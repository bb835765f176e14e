import { z } from 'zod/v4';

import { operation } from '../src/client/operation';
import { inboundMediaHandlers, inboundMediaOperations } from './inbound-media';
import { Instance } from '../src/client/resources/instances';
import { Message } from '../src/client/resources/messages';
import { Id, pathParams, PhoneNumber } from '../src/client/schemas';
import { requireInstance, type ResourceHandlers } from './handlers/context';
import { notFound } from './http';
import { completeConnection, disconnect } from './handlers/instances';
import { receiveMessage } from './handlers/messages';
import { presentInstance, presentMessage } from './handlers/present';

/**
 * Endpoints that exist only in the sandbox, standing in for what happens on a phone: scanning the QR code,
 * a contact writing in, the phone going offline. Served at `/sandbox/...` (not under `/api/v1`), with a
 * workspace key, validated and answered like the contract's own operations.
 */

const byInstance = pathParams('instanceId');

export const sandboxOperations = {
	scan: operation({
		method: 'POST',
		path: '/sandbox/instances/{instanceId}/scan',
		summary:
			'Sandbox only: scan the QR code (or enter the pairing code) on the phone; the instance connects',
		scope: 'messaging:write',
		params: byInstance,
		body: z.strictObject({
			phoneNumber: PhoneNumber.optional().describe(
				'The number of the phone that scans; made up when omitted',
			),
		}),
		response: Instance,
		status: 200,
	}),
	inbound: operation({
		method: 'POST',
		path: '/sandbox/instances/{instanceId}/inbound',
		summary: 'Sandbox only: a contact sends a text message to the instance (message.received)',
		scope: 'messaging:write',
		params: byInstance,
		body: z.strictObject({
			from: PhoneNumber,
			text: z.string().min(1).max(4096).default('Hello from the sandbox'),
			groupId: z
				.string()
				.regex(/@g\.us$/, 'must be a group id ending in @g.us')
				.optional(),
		}),
		response: Message,
		status: 201,
	}),
	disconnect: operation({
		method: 'POST',
		path: '/sandbox/instances/{instanceId}/disconnect',
		summary:
			'Sandbox only: the phone goes offline; the instance disconnects (instance.disconnected)',
		scope: 'messaging:write',
		params: byInstance,
		response: Instance,
		status: 200,
	}),
	redeliver: operation({
		method: 'POST',
		path: '/sandbox/webhooks/{webhookId}/redeliver',
		summary:
			'Sandbox only: deliver an event to a webhook (of any surface) again now, `copies` times at once, as a service does when an answer was lost; answers the status each delivery got',
		scope: 'messaging:write',
		params: pathParams('webhookId'),
		body: z.strictObject({
			eventId: Id,
			copies: z.number().int().min(1).max(20).default(1),
		}),
		response: z.looseObject({
			eventId: z.string(),
			webhookId: z.string(),
			statuses: z.array(z.number().nullable()),
		}),
		status: 200,
	}),
	...inboundMediaOperations,
};

export const sandboxHandlers: ResourceHandlers<typeof sandboxOperations> = {
	scan: ({ core, workspaceId, params, body }) => {
		const instance = requireInstance(core, workspaceId, params.instanceId);
		completeConnection(core, instance, body.phoneNumber);
		return presentInstance(instance);
	},
	inbound: ({ core, workspaceId, params, body }) => {
		const instance = requireInstance(core, workspaceId, params.instanceId);
		return presentMessage(receiveMessage(core, instance, body));
	},
	disconnect: ({ core, workspaceId, params }) => {
		const instance = requireInstance(core, workspaceId, params.instanceId);
		if (instance.status === 'connected') disconnect(core, instance);
		return presentInstance(instance);
	},
	redeliver: async ({ core, workspaceId, params, body }) => {
		const delivery = core.store
			.all('deliveries', (record) => record.workspaceId === workspaceId)
			.find((record) => record.webhookId === params.webhookId && record.eventId === body.eventId);
		if (!delivery) throw notFound('Delivery of that event to webhook', params.webhookId);
		const statuses = await core.deliveries.redeliver(delivery, body.copies);
		return { eventId: body.eventId, webhookId: params.webhookId, statuses };
	},
	...inboundMediaHandlers,
};
