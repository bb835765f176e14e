import { NodeOperationError, type INodeType, type INodeTypeDescription } from 'n8n-workflow';

import { api, AutomationEventName, type AutomationClient } from '../../src/client';
import { automationConnection } from '../shared/connections';
import {
	batchingTriggerOptions,
	chosenBatching,
	triggerBasics,
	webhookTrigger,
} from '../shared/trigger';
import { splitList } from '../shared/values';

const trigger = webhookTrigger<AutomationClient, string>({
	connection: automationConnection,
	webhooks: (client) => client.webhooks,
	scopes: { read: api.automation.webhooks.get.scope, write: api.automation.webhooks.create.scope },
	batching: chosenBatching,
	subscription(context) {
		if (context.getNodeParameter('listenTo', 'all') === 'all') return { events: ['automation.*'] };
		// "order.created" and "automation.order.created" both name the event published as "order.created".
		const names = splitList(String(context.getNodeParameter('eventNames', ''))).map((name) =>
			name.replace(/^automation\./, ''),
		);
		const invalid = names.filter((name) => !AutomationEventName.safeParse(name).success);
		if (names.length === 0 || invalid.length > 0) {
			throw new NodeOperationError(
				context.getNode(),
				names.length === 0
					? 'Enter at least one event name, or listen to all events'
					: `Invalid event name${invalid.length > 1 ? 's' : ''}: ${invalid.join(', ')}`,
				{
					description:
						'Event names start with a lowercase letter and use a-z, 0-9, _, . or -, as in "order.created". Separate several with commas.',
				},
			);
		}
		return { events: [...new Set(names)].map((name) => `automation.${name}`) };
	},
});

export class MultichannelAutomationTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Multichannel Automation Trigger',
		name: 'multichannelAutomationTrigger',
		icon: {
			light: 'file:../../icons/automation.svg',
			dark: 'file:../../icons/automation.dark.svg',
		},
		...triggerBasics,
		subtitle: '={{ $parameter["listenTo"] === "all" ? "All events" : $parameter["eventNames"] }}',
		// n8n's node creator shows this for the Automation node too (one entry for both): it names the actions.
		description:
			'Publish automation events in a Multichannel workspace, or start a workflow when one is published',
		defaults: {
			name: 'Multichannel Automation Trigger',
		},
		credentials: [
			{
				name: 'multichannelAutomationApi',
				required: true,
			},
		],
		properties: [
			{
				displayName: 'Listen To',
				name: 'listenTo',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'All Events',
						value: 'all',
						description: 'Every automation event published in the workspace',
					},
					{
						name: 'Chosen Events',
						value: 'chosen',
						description: 'One or several events, by name',
					},
				],
				default: 'all',
			},
			{
				displayName: 'Event Names',
				name: 'eventNames',
				type: 'string',
				required: true,
				default: '',
				placeholder: 'e.g. order.created, order.paid',
				description: 'The names the events are published with; separate several with commas',
				displayOptions: { show: { listenTo: ['chosen'] } },
			},
			batchingTriggerOptions,
		],
	};

	webhookMethods = trigger.webhookMethods;

	webhook = trigger.webhook;
}
