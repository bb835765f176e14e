import type { WorkspaceClient } from '../../../../src/client';
import { defineResource } from '../../../shared/resources';
import * as addParticipants from './addParticipants.operation';
import * as create from './create.operation';
import * as demoteParticipants from './demoteParticipants.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as getInviteCode from './getInviteCode.operation';
import * as leave from './leave.operation';
import { searchGroups } from './locator';
import * as promoteParticipants from './promoteParticipants.operation';
import * as removeParticipants from './removeParticipants.operation';
import * as revokeInviteCode from './revokeInviteCode.operation';
import * as update from './update.operation';

/** Groups of an instance: creation, settings, participants and invite codes. */
export const group = defineResource<WorkspaceClient>({
	name: 'Group',
	value: 'group',
	noun: 'group',
	operations: [
		create,
		get,
		getAll,
		update,
		addParticipants,
		removeParticipants,
		promoteParticipants,
		demoteParticipants,
		getInviteCode,
		revokeInviteCode,
		leave,
	],
	defaultOperation: getAll.option.value,
	listSearch: { searchGroups },
});
