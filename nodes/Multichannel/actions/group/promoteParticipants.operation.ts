import { participantsOperation } from './participants';

export const option = {
	name: 'Promote Participants',
	value: 'promoteParticipants',
	action: 'Promote participants of a group',
	description: 'Make participants admins of a group',
};

export const { description, scope, output, fields, execute } = participantsOperation('promote');
