import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { locatorValue } from '../../../shared/locator';
import type { OperationContext } from '../../../shared/resources';
import { chatLocator, chatOf } from '../chat/locator';
import { instanceLocator } from '../instance/locator';
import { labelLocator } from './locator';

/** What Add to Chat and Remove from Chat share: the instance, the chat, the label; the chat's labels out. */

export const chatLabelFields = (verb: string): INodeProperties[] => [
	{ ...instanceLocator, description: 'The instance the chat is on' },
	chatLocator,
	{ ...labelLocator, description: `The label to ${verb}` },
];

export const output = api.workspace.chats.addLabel.response;
export const readsNumbers = true;
export const fields = { instanceId: 'Instance', chatId: 'Chat', labelId: 'Label' };

export async function changeChatLabel(
	context: IExecuteFunctions,
	{ client, itemIndex, defaultCountry }: OperationContext<WorkspaceClient>,
	change: 'addLabel' | 'removeLabel',
) {
	const chat = chatOf(context, itemIndex, defaultCountry);
	const labelId = locatorValue(context, 'labelId', itemIndex);
	return await client.chats[change]({ ...chat, labelId });
}
