import { api } from '../../../../src/client';
import { handOverOperation } from './handOver';

export const option = {
	name: 'Give Back',
	value: 'giveBack',
	action: 'Give a chat back from a person',
	description:
		'The chat is no longer handled by a person: its messages no longer say handedOver, and automations answer it again. A chat not handed over stays as it is.',
};

export const scope = api.workspace.chats.giveBack.scope;
export const { description, readsNumbers, output, fields, execute } = handOverOperation('giveBack');
