import { groupOperation } from './invite';

export const { option, description, scope, fields, execute } = groupOperation('revokeInviteCode', {
	name: 'Revoke Invite Code',
	value: 'revokeInviteCode',
	action: 'Revoke the invite code of a group',
	description: 'Make the current invite link stop working and get a new one',
});
