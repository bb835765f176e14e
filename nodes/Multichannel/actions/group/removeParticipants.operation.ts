import { participantsOperation } from './participants';

export const option = {
	name: 'Remove Participants',
	value: 'removeParticipants',
	action: 'Remove participants from a group',
	description: 'Remove people from a group',
};

export const { description, scope, output, fields, execute } = participantsOperation('remove');
