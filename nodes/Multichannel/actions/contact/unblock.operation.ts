import { contactOperation } from './simple';

export const { option, description, scope, fields, execute } = contactOperation(
	'unblock',
	{
		name: 'Unblock',
		value: 'unblock',
		action: 'Unblock a contact',
		description: 'Allow messages from and to a blocked contact again',
	},
	'The contact to unblock',
);
