import { instanceOperation } from './simple';

export const { option, description, scope, fields, execute } = instanceOperation(
	'delete',
	{
		name: 'Delete',
		value: 'delete',
		action: 'Delete an instance',
		description: 'Delete an instance for good',
	},
	'The instance to delete',
);
