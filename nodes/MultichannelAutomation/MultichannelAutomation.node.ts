import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { actionBasics } from '../shared/action-node';
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
		...actionBasics,
		subtitle,
		description: 'Publish events into a Multichannel workspace and list the published ones',
		defaults: {
			name: 'Multichannel Automation',
		},
		usableAsTool: true,
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
