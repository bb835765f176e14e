import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { WorkspaceClient } from '../../../../src/client';
import { HandOver } from '../../../../src/client/resources/hand-overs';
import type { OperationContext } from '../../../shared/resources';
import { instanceLocator } from '../instance/locator';
import { chatLocator, chatOf } from './locator';

/** What Hand Over to a Person and Give Back share: the chat they act on, and its hand-over as the output. */
export function handOverOperation(call: 'handOver' | 'giveBack') {
	const description: INodeProperties[] = [
		{ ...instanceLocator, description: 'The instance the chat is on' },
		chatLocator,
	];
	async function execute(
		this: IExecuteFunctions,
		{ client, itemIndex, defaultCountry }: OperationContext<WorkspaceClient>,
	) {
		return await client.chats[call](chatOf(this, itemIndex, defaultCountry));
	}
	return {
		description,
		readsNumbers: true,
		output: HandOver,
		fields: { instanceId: 'Instance', chatId: 'Chat' },
		execute,
	};
}
