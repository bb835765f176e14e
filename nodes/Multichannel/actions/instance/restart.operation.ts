import { instanceOperation } from './simple';

export const { option, description, scope, fields, execute } = instanceOperation(
	'restart',
	{
		name: 'Restart',
		value: 'restart',
		action: 'Restart an instance',
		description: 'Restart the channel session of an instance',
	},
	'The instance to restart',
);
