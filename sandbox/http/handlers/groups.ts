import { randomBytes, randomInt } from 'crypto';

import type { api } from '../../../src/client/api';
import type { SandboxCore } from '../../core';
import type { GroupRecord, Participant } from '../../store/store';
import { numberExists } from '../../channel/chat-ids';
import { paginate, type ResourceHandlers } from './context';
import { requireConnected, requireGroup, requireInstance } from '../../channel/instance-records';
import { presentGroup } from '../../present';

/**
 * Groups of an instance. The instance's own number is the owner (`superadmin`); numbers that are not on
 * the channel cannot be added. Changes go through the channel, so they need a connected instance.
 */

export const groupHandlers: ResourceHandlers<typeof api.workspace.groups> = {
	create: ({ core, workspaceId, params, body }) => {
		const instance = requireConnected(core, workspaceId, params.instanceId);
		const owner = instance.phoneNumber as string;
		const participants: Participant[] = [{ phoneNumber: owner, role: 'superadmin' }];
		for (const phoneNumber of new Set(body.participants)) {
			if (phoneNumber !== owner && numberExists(phoneNumber))
				participants.push({ phoneNumber, role: 'member' });
		}
		const now = core.now().toISOString();
		const group = core.store.insert('groups', {
			id: `120363${String(randomInt(100_000, 999_999))}${String(randomInt(100_000, 999_999))}@g.us`,
			workspaceId,
			instanceId: instance.id,
			subject: body.subject,
			description: body.description ?? null,
			owner,
			participants,
			settings: { announcementsOnly: false, locked: false, ...body.settings },
			inviteCode: inviteCode(),
			createdAt: now,
			updatedAt: now,
		});
		core.emit(workspaceId, 'group.created', presentGroup(group), { instanceId: instance.id });
		return presentGroup(group);
	},

	list: ({ core, workspaceId, params, query }) => {
		const instance = requireInstance(core, workspaceId, params.instanceId);
		return paginate(
			core.store.all('groups', (group) => group.instanceId === instance.id),
			query,
			presentGroup,
		);
	},

	get: ({ core, workspaceId, params }) =>
		presentGroup(requireGroup(core, workspaceId, params.instanceId, params.groupId)),

	update: ({ core, workspaceId, params, body }) => {
		const group = requireGroup(core, workspaceId, params.instanceId, params.groupId);
		requireConnected(core, workspaceId, params.instanceId);
		if (body.subject !== undefined) group.subject = body.subject;
		if (body.description !== undefined) group.description = body.description;
		if (body.settings) group.settings = { ...group.settings, ...body.settings };
		touch(core, group);
		return presentGroup(group);
	},

	updateParticipants: ({ core, workspaceId, params, body }) => {
		const group = requireGroup(core, workspaceId, params.instanceId, params.groupId);
		requireConnected(core, workspaceId, params.instanceId);
		const results = [...new Set(body.participants)].map((phoneNumber) => ({
			phoneNumber,
			status: applyParticipantAction(group, body.action, phoneNumber),
		}));
		if (results.some((result) => result.status === 'ok')) {
			touch(core, group);
			core.emit(workspaceId, 'group.participants_updated', presentGroup(group), {
				instanceId: group.instanceId,
			});
		}
		return { group: presentGroup(group), results };
	},

	getInviteCode: ({ core, workspaceId, params }) => {
		const group = requireGroup(core, workspaceId, params.instanceId, params.groupId);
		return presentInvite(core, group);
	},

	revokeInviteCode: ({ core, workspaceId, params }) => {
		const group = requireGroup(core, workspaceId, params.instanceId, params.groupId);
		requireConnected(core, workspaceId, params.instanceId);
		group.inviteCode = inviteCode();
		touch(core, group);
		return presentInvite(core, group);
	},

	leave: ({ core, workspaceId, params }) => {
		const group = requireGroup(core, workspaceId, params.instanceId, params.groupId);
		requireConnected(core, workspaceId, params.instanceId);
		// Once left, the group is no longer among the instance's groups.
		core.store.remove('groups', group.id);
	},
};

function applyParticipantAction(
	group: GroupRecord,
	action: 'add' | 'remove' | 'promote' | 'demote',
	phoneNumber: string,
): string {
	const participant = group.participants.find((candidate) => candidate.phoneNumber === phoneNumber);
	if (action === 'add') {
		if (participant) return 'already_participant';
		if (!numberExists(phoneNumber)) return 'not_found';
		group.participants.push({ phoneNumber, role: 'member' });
		return 'ok';
	}
	if (!participant) return 'not_participant';
	// The owner stays: it can be neither removed nor demoted.
	if (participant.role === 'superadmin' && action !== 'promote') return 'not_allowed';
	if (action === 'remove')
		group.participants = group.participants.filter((candidate) => candidate !== participant);
	if (action === 'promote' && participant.role === 'member') participant.role = 'admin';
	if (action === 'demote') participant.role = 'member';
	return 'ok';
}

function touch(core: SandboxCore, group: GroupRecord): void {
	group.updatedAt = core.now().toISOString();
}

function inviteCode(): string {
	return randomBytes(16).toString('base64url').slice(0, 22);
}

function presentInvite(core: SandboxCore, group: GroupRecord) {
	return {
		groupId: group.id,
		code: group.inviteCode,
		url: `${core.baseUrl}/sandbox/invite/${group.inviteCode}`,
	};
}
