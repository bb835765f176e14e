import { participantsOperation } from './participants';

export const { option, description, scope, fields, execute } = participantsOperation('demote');
