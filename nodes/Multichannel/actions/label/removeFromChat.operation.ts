import type { IExecuteFunctions } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import type { OperationContext } from '../../../shared/resources';
import { changeChatLabel, chatLabelFields } from './chatLabel';

export { fields, output, readsNumbers } from './chatLabel';

export const option = {
	name: 'Remove From Chat',
	value: 'removeFromChat',
	action: 'Remove a label from a chat',
	description:
		"Take a label off a chat; a chat without it stays as it is. Outputs the chat's labels now.",
};

export const description = chatLabelFields('take off the chat');

export const scope = api.workspace.chats.removeLabel.scope;

export async function execute(this: IExecuteFunctions, context: OperationContext<WorkspaceClient>) {
	return await changeChatLabel(this, context, 'removeLabel');
}
