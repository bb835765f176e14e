import { instanceOperation } from './simple';

export const { option, description, scope, fields, execute } = instanceOperation(
	'logout',
	{
		name: 'Log Out',
		value: 'logout',
		action: 'Log out an instance',
		description: 'Disconnect the phone of an instance; it can be connected again later',
	},
	'The instance to log out',
);
