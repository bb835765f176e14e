import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { actionBasics } from '../shared/action-node';
import { shortLinkConnection, type ConnectionOptions } from '../shared/connections';
import { actionNodeExecute } from '../shared/execute';
import { listSearch, properties, resources, subtitle } from './actions';

export class MultichannelShortLink implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Multichannel Short Link',
		name: 'multichannelShortLink',
		icon: {
			light: 'file:../../icons/short-link.svg',
			dark: 'file:../../icons/short-link.dark.svg',
		},
		...actionBasics,
		subtitle,
		description: 'Create and manage Multichannel short links and read their click activity',
		defaults: {
			name: 'Multichannel Short Link',
		},
		usableAsTool: true,
		credentials: [
			{
				name: 'multichannelShortLinkApi',
				required: true,
			},
		],
		properties,
	};

	methods = { listSearch };

	execute: (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>;

	/** n8n builds the node without options; tests pass client options (shorter waits) through the harness. */
	constructor(options: ConnectionOptions = {}) {
		this.execute = actionNodeExecute({ resources, connection: shortLinkConnection, options });
	}
}
