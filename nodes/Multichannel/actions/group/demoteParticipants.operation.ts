import { participantsOperation } from './participants';

export const option = {
	name: 'Demote Participants',
	value: 'demoteParticipants',
	action: 'Demote participants of a group',
	description: 'Make admins ordinary participants again',
};

export const { description, scope, output, fields, execute } = participantsOperation('demote');
