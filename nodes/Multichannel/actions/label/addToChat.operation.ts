import type { IExecuteFunctions } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import type { OperationContext } from '../../../shared/resources';
import { changeChatLabel, chatLabelFields } from './chatLabel';

export { fields, output, readsNumbers } from './chatLabel';

export const option = {
	name: 'Add to Chat',
	value: 'addToChat',
	action: 'Add a label to a chat',
	description:
		"Put a label on a chat (a person or a group); a chat that has it already stays as it is. Outputs the chat's labels now.",
};

export const description = chatLabelFields('put on the chat');

export const scope = api.workspace.chats.addLabel.scope;

export async function execute(this: IExecuteFunctions, context: OperationContext<WorkspaceClient>) {
	return await changeChatLabel(this, context, 'addLabel');
}
