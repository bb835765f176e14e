import { groupOperation } from './invite';

export const { option, description, scope, fields, execute } = groupOperation('leave', {
	name: 'Leave',
	value: 'leave',
	action: 'Leave a group',
	description: 'Make the instance leave a group',
});
