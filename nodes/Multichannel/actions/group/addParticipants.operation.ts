import { participantsOperation } from './participants';

export const option = {
	name: 'Add Participants',
	value: 'addParticipants',
	action: 'Add participants to a group',
	description: 'Add people to a group',
};

export const { description, scope, output, fields, execute } = participantsOperation('add');
