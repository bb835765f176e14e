import { contactOperation } from './simple';

export const { option, description, scope, fields, execute } = contactOperation(
	'delete',
	{
		name: 'Delete',
		value: 'delete',
		action: 'Delete a contact',
		description: 'Delete a contact of an instance',
	},
	'The contact to delete',
);
