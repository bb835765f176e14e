import { api } from '../../../../src/client';
import { handOverOperation } from './handOver';

export const option = {
	name: 'Hand Over to a Person',
	value: 'handOver',
	action: 'Hand a chat over to a person',
	description:
		"A person takes the chat: its messages say handedOver until it is given back (Give Back, or the instance's quiet period after the last answer from the business's phone). A chat handed over already stays as it is.",
};

export const scope = api.workspace.chats.handOver.scope;
export const { description, readsNumbers, output, fields, execute } = handOverOperation('handOver');
