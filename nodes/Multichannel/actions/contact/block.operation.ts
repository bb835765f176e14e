import { contactOperation } from './simple';

export const { option, description, scope, fields, execute } = contactOperation(
	'block',
	{
		name: 'Block',
		value: 'block',
		action: 'Block a contact',
		description: 'Stop messages from and to a contact',
	},
	'The contact to block',
);
