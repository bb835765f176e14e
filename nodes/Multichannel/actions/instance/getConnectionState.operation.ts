import { instanceOperation } from './simple';

export const { option, description, scope, fields, execute } = instanceOperation(
	'getConnectionState',
	{
		name: 'Get Connection State',
		value: 'getConnectionState',
		action: 'Get the connection state of an instance',
		description: 'Find out whether the phone of an instance is connected',
	},
	'The instance to check',
);
