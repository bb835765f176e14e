import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { automationConnection, type ConnectionOptions } from '../shared/connections';
import { actionNodeExecute } from '../shared/execute';
import { properties, resources, subtitle } from './actions';

export class MultichannelAutomation implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Multichannel Automation',
		name: 'multichannelAutomation',
		icon: {
			light: 'file:../../icons/automation.svg',
			dark: 'file:../../icons/automation.dark.svg',
		},
		group: ['output'],
		version: 1,
		subtitle,
		description: 'Publish events into a Multichannel workspace and list the published ones',
		defaults: {
			name: 'Multichannel Automation',
		},
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'multichannelAutomationApi',
				required: true,
			},
		],
		properties,
	};

	execute: (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>;

	/** n8n builds the node without options; tests pass client options (shorter waits) through the harness. */
	constructor(options: ConnectionOptions = {}) {
		this.execute = actionNodeExecute({ resources, connection: automationConnection, options });
	}
}
