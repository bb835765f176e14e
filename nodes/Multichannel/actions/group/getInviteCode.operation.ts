import { groupOperation } from './invite';

export const { option, description, scope, fields, execute } = groupOperation('getInviteCode', {
	name: 'Get Invite Code',
	value: 'getInviteCode',
	action: 'Get the invite code of a group',
	description: 'Get the code and link that let people join a group',
});
