import { z } from '../zod';

import { operation } from '../operation';
import { Id, ListQuery, named, page, pathParams, PhoneNumber, Timestamp, text } from '../schemas';

export const ParticipantRole = z.enum(['member', 'admin', 'superadmin']);

export const Group = named(
	'Group',
	z.looseObject({
		id: Id.describe('Group id, ending in @g.us'),
		instanceId: Id.optional(),
		subject: z.string().optional(),
		description: z.string().nullable().optional(),
		owner: z.string().nullable().optional(),
		participants: z
			.array(
				z.looseObject({ phoneNumber: z.string(), role: ParticipantRole.or(z.string()).optional() }),
			)
			.optional(),
		settings: z
			.looseObject({ announcementsOnly: z.boolean().optional(), locked: z.boolean().optional() })
			.optional(),
		createdAt: Timestamp.optional(),
		updatedAt: Timestamp.optional(),
	}),
);
export type Group = z.output<typeof Group>;

const GroupSettings = z.strictObject({
	announcementsOnly: z.boolean().optional().describe('Only admins can send messages'),
	locked: z.boolean().optional().describe('Only admins can edit the group info'),
});

export const CreateGroup = named(
	'CreateGroup',
	z.strictObject({
		subject: text({ min: 1, max: 100 }),
		participants: z.array(PhoneNumber).min(1).max(1024),
		description: text({ max: 2048 }).optional(),
		settings: GroupSettings.optional(),
	}),
);

export const UpdateGroup = named(
	'UpdateGroup',
	z.strictObject({
		subject: text({ min: 1, max: 100 }).optional(),
		description: text({ max: 2048 }).optional(),
		settings: GroupSettings.optional(),
	}),
);

export const ParticipantAction = z.enum(['add', 'remove', 'promote', 'demote']);
export const UpdateParticipants = named(
	'UpdateParticipants',
	z.strictObject({
		action: ParticipantAction,
		participants: z.array(PhoneNumber).min(1).max(1024),
	}),
);

export const ParticipantsResult = named(
	'ParticipantsResult',
	z.looseObject({
		group: Group.optional(),
		results: z
			.array(
				z.looseObject({
					phoneNumber: z.string(),
					status: z
						.enum(['ok', 'not_found', 'not_participant', 'already_participant'])
						.or(z.string()),
				}),
			)
			.optional(),
	}),
);

export const InviteCode = named(
	'InviteCode',
	z.looseObject({ groupId: Id.optional(), code: z.string(), url: z.string().optional() }),
);

const onInstance = pathParams('instanceId');
const byId = pathParams('instanceId', 'groupId');
const item = '/instances/{instanceId}/groups/{groupId}';

export const groupOperations = {
	create: operation({
		method: 'POST',
		path: '/instances/{instanceId}/groups',
		summary: 'Create a group',
		scope: 'messaging:write',
		params: onInstance,
		body: CreateGroup,
		response: Group,
		status: 201,
		creates: true,
	}),
	list: operation({
		method: 'GET',
		path: '/instances/{instanceId}/groups',
		summary: 'List the groups the instance is in',
		scope: 'messaging:read',
		params: onInstance,
		query: ListQuery,
		response: page(Group),
		status: 200,
		paginated: true,
	}),
	get: operation({
		method: 'GET',
		path: item,
		summary: 'Get a group with its participants',
		scope: 'messaging:read',
		params: byId,
		response: Group,
		status: 200,
	}),
	update: operation({
		method: 'PATCH',
		path: item,
		summary: 'Update the subject, description or settings of a group',
		scope: 'messaging:write',
		params: byId,
		body: UpdateGroup,
		response: Group,
		status: 200,
	}),
	updateParticipants: operation({
		method: 'POST',
		path: `${item}/participants`,
		summary: 'Add, remove, promote or demote participants',
		scope: 'messaging:write',
		params: byId,
		body: UpdateParticipants,
		response: ParticipantsResult,
		status: 200,
	}),
	getInviteCode: operation({
		method: 'GET',
		path: `${item}/invite-code`,
		summary: 'Get the invite code of a group',
		scope: 'messaging:read',
		params: byId,
		response: InviteCode,
		status: 200,
	}),
	revokeInviteCode: operation({
		method: 'POST',
		path: `${item}/invite-code/revoke`,
		summary: 'Revoke the invite code and get a new one',
		scope: 'messaging:write',
		params: byId,
		response: InviteCode,
		status: 200,
	}),
	leave: operation({
		method: 'POST',
		path: `${item}/leave`,
		summary: 'Leave a group',
		scope: 'messaging:write',
		params: byId,
		status: 204,
	}),
};
