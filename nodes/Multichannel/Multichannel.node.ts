import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { workspaceConnection } from '../shared/client';
import { executeActions } from '../shared/execute';
import { concurrency, listSearch, properties, resources } from './actions';

export class Multichannel implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Multichannel',
		name: 'multichannel',
		icon: {
			light: 'file:../../icons/multichannel.svg',
			dark: 'file:../../icons/multichannel.dark.svg',
		},
		group: ['output'],
		version: 1,
		subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
		description:
			'Send messages and manage instances, groups, contacts and webhooks of the Multichannel messaging service',
		defaults: {
			name: 'Multichannel',
		},
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'multichannelApi',
				required: true,
			},
		],
		properties,
	};

	methods = { listSearch };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeActions(this, {
			resources,
			keyKind: 'workspace',
			connect: workspaceConnection,
			concurrency,
		});
	}
}
