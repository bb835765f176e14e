import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { actionBasics } from '../shared/action-node';
import { workspaceConnection, type ConnectionOptions } from '../shared/connections';
import { actionNodeExecute } from '../shared/execute';
import { listSearch, properties, resources, subtitle } from './actions';
import { answerWebhook, answerWebhooks } from './actions/message/sendAndWait/answerWebhook';

export class Multichannel implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Multichannel',
		name: 'multichannel',
		icon: {
			light: 'file:../../icons/multichannel.svg',
			dark: 'file:../../icons/multichannel.dark.svg',
		},
		...actionBasics,
		subtitle,
		description:
			'Send messages and manage instances, groups, contacts and webhooks of the Multichannel messaging service',
		defaults: {
			name: 'Multichannel',
		},
		// As an AI agent's tool: n8n passes a tool no binary data, so files travel as URLs and descriptions.
		usableAsTool: {
			replacements: {
				description:
					"Send and read messages of the Multichannel messaging service (text, media from a public URL, location, contact card, reaction, poll), read the history of a chat and list chats with their unread messages, and manage its instances, groups, contacts and webhooks; read a campaign's progress and its recipients, and check whether a phone number opted out of campaigns. Files are not passed to or from agents: Send Media takes a URL, Download Media gives the name, type, size and SHA-256 of a file, and a chat's history describes each file in words. A chat or a recipient is a chat ID (…@s.whatsapp.net for a person, …@lid for a person who hides their number, …@g.us for a group), a person's phone number with its country code (+14155550123), or their contact ID (ct_…) or @username; dates are ISO 8601",
			},
		},
		credentials: [
			{
				name: 'multichannelApi',
				required: true,
			},
		],
		// Where a waiting "Send and Wait for Response" resumes (n8n serves it only while the execution waits).
		webhooks: answerWebhooks,
		properties,
	};

	methods = { listSearch };

	webhook = answerWebhook;

	execute: (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>;

	/** n8n builds the node without options; tests pass client options (shorter waits) through the harness. */
	constructor(options: ConnectionOptions = {}) {
		this.execute = actionNodeExecute({ resources, connection: workspaceConnection, options });
	}
}
