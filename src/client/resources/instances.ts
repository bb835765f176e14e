import { z } from '../zod';

import { operation } from '../operation';
import { Id, ListQuery, named, page, pathParams, PhoneNumber, Timestamp, text } from '../schemas';
import { MAX_REJECT_TEXT } from './calls';
import { Restriction } from './contact-acts';
import { HAND_OVER_QUIET_MINUTES } from './hand-overs';

const QUIET_MINUTES = `How long a chat handed over to a person stays so with no message from the business's own phone, in minutes (${HAND_OVER_QUIET_MINUTES.default} by default)`;

export const InstanceStatus = z.enum(['created', 'connecting', 'connected', 'disconnected']);

/** A connected channel session (one phone number on the messaging channel). */
export const Instance = named(
	'Instance',
	z.looseObject({
		id: Id,
		name: z.string().optional(),
		status: InstanceStatus.or(z.string()).optional(),
		phoneNumber: z.string().nullable().optional(),
		settings: z
			.looseObject({
				rejectCalls: z.boolean().describe('Every incoming call is rejected at once'),
				rejectCallsText: z
					.string()
					.nullable()
					.describe('Sent to each caller whose call the setting rejects (null: none)'),
				handOverQuietMinutes: z.number().int().optional().describe(QUIET_MINUTES),
			})
			.optional(),
		restriction: Restriction.nullable()
			.optional()
			.describe(
				'The channel’s latest limit on the instance (`instance.restricted`), past its `until` no longer in force; null when it was never limited',
			),
		createdAt: Timestamp.optional(),
		updatedAt: Timestamp.optional(),
	}),
);
export type Instance = z.output<typeof Instance>;

export const CreateInstance = named(
	'CreateInstance',
	z.strictObject({
		name: text({ min: 1, max: 100 }),
		description: text({ max: 500 }).optional(),
	}),
);

export const UpdateInstance = named(
	'UpdateInstance',
	z.strictObject({
		name: text({ min: 1, max: 100 }).optional(),
		description: text({ max: 500 }).optional(),
		rejectCalls: z
			.boolean()
			.optional()
			.describe('Reject every incoming call at once (call.received, then call.rejected)'),
		rejectCallsText: text({ min: 1, max: MAX_REJECT_TEXT })
			.nullable()
			.optional()
			.describe('Sent to each caller the setting rejects; null sends none'),
		handOverQuietMinutes: z
			.number()
			.int()
			.min(HAND_OVER_QUIET_MINUTES.min)
			.max(HAND_OVER_QUIET_MINUTES.max)
			.optional()
			.describe(QUIET_MINUTES),
	}),
);

export const ConnectInstance = named(
	'ConnectInstance',
	z
		.strictObject({
			method: z.enum(['qr', 'pairing_code']).default('qr'),
			phoneNumber: PhoneNumber.optional().describe('Required for `pairing_code`'),
		})
		.refine((body) => body.method !== 'pairing_code' || body.phoneNumber !== undefined, {
			message: 'phoneNumber is required when method is pairing_code',
			path: ['phoneNumber'],
		}),
	{
		if: { properties: { method: { const: 'pairing_code' } }, required: ['method'] },
		then: { properties: { phoneNumber: {} }, required: ['phoneNumber'] },
	},
);

export const Connection = named(
	'Connection',
	z.looseObject({
		instanceId: Id,
		status: InstanceStatus.or(z.string()).optional(),
		method: z.string().optional(),
		qr: z
			.looseObject({
				code: z.string(),
				imageDataUrl: z.string().optional(),
				expiresAt: Timestamp.optional(),
			})
			.nullable()
			.optional(),
		pairingCode: z.string().nullable().optional(),
	}),
);

export const ConnectionState = named(
	'ConnectionState',
	z.looseObject({
		instanceId: Id,
		state: InstanceStatus.or(z.string()),
		phoneNumber: z.string().nullable().optional(),
		updatedAt: Timestamp.optional(),
	}),
);

const byId = pathParams('instanceId');

export const instanceOperations = {
	create: operation({
		method: 'POST',
		path: '/instances',
		summary: 'Create an instance',
		scope: 'messaging:write',
		body: CreateInstance,
		response: Instance,
		status: 201,
		creates: true,
	}),
	list: operation({
		method: 'GET',
		path: '/instances',
		summary: 'List instances',
		scope: 'messaging:read',
		query: ListQuery,
		response: page(Instance),
		status: 200,
		paginated: true,
	}),
	get: operation({
		method: 'GET',
		path: '/instances/{instanceId}',
		summary: 'Get an instance',
		scope: 'messaging:read',
		params: byId,
		response: Instance,
		status: 200,
	}),
	update: operation({
		method: 'PATCH',
		path: '/instances/{instanceId}',
		summary: 'Update an instance: its name, description, call settings and hand-over quiet period',
		scope: 'messaging:write',
		params: byId,
		body: UpdateInstance,
		response: Instance,
		status: 200,
	}),
	connect: operation({
		method: 'POST',
		path: '/instances/{instanceId}/connect',
		summary: 'Start connecting an instance: returns a QR code or a pairing code',
		scope: 'messaging:write',
		params: byId,
		body: ConnectInstance,
		response: Connection,
		status: 200,
	}),
	getConnectionState: operation({
		method: 'GET',
		path: '/instances/{instanceId}/connection-state',
		summary: 'Get the connection state of an instance',
		scope: 'messaging:read',
		params: byId,
		response: ConnectionState,
		status: 200,
	}),
	restart: operation({
		method: 'POST',
		path: '/instances/{instanceId}/restart',
		summary: 'Restart an instance',
		scope: 'messaging:write',
		params: byId,
		response: Instance,
		status: 200,
	}),
	logout: operation({
		method: 'POST',
		path: '/instances/{instanceId}/logout',
		summary: 'Log an instance out of the channel',
		scope: 'messaging:write',
		params: byId,
		response: Instance,
		status: 200,
	}),
	delete: operation({
		method: 'DELETE',
		path: '/instances/{instanceId}',
		summary: 'Delete an instance',
		description:
			'An instance that a campaign still sends from (scheduled, running or paused) is 409 `campaigns_unfinished`, naming the campaigns: cancel them first.',
		scope: 'messaging:write',
		params: byId,
		status: 204,
	}),
};
