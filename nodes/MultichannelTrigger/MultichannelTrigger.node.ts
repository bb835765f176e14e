import {
	type ILoadOptionsFunctions,
	type INodeProperties,
	type INodePropertyOptions,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import {
	api,
	instanceOfEvent,
	MESSAGING_EVENTS,
	type MessagingEventType,
	type WorkspaceClient,
} from '../../src/client';
import { workspaceConnection } from '../shared/connections';
import { eventsSubtitle } from '../shared/events';
import { optionsFrom } from '../shared/lists';
import { attachMedia, mediaOptions, mediaOutput } from './attach-media';
import { campaignOptions, skipOtherCampaign } from './campaigns';
import {
	checkMessageFilters,
	eventsOfMessageFilter,
	messageFilterOptions,
	skipFilteredMessage,
} from './filters';
import { contactActOptions, skipUnwantedContactAct } from './contact-acts';
import { chosenGathering, gatherOption } from './gather';
import { handOverOption, skipHandedOverChat } from './hand-over';
import { pollCallOptions, skipPollOrCall } from './polls-calls';
import { labelOptions, skipUnwantedLabelChange } from './labels';
import { replyHighlights, replyOptions, skipUnwantedReply } from './replies';
import {
	chosenEvents,
	chosenItemsProperty,
	eventsProperty,
	triggerOptions,
	triggerBasics,
	webhookTrigger,
} from '../shared/trigger';

/**
 * Options that look at received messages (gathering, replies, the message filters): offered with Message Received
 * or All Events among the events, the chat filters also with the contact's acts in a chat. Offered with only
 * campaign events chosen, they read as filters of those.
 */
function forReceivedMessages(options: INodeProperties[]): INodeProperties[] {
	return options.map((option) => ({
		...option,
		displayOptions: {
			...option.displayOptions,
			show: {
				...option.displayOptions?.show,
				'/events': [...eventsOfMessageFilter(option.name), '*'],
			},
		},
	}));
}

/** Exported for the output schema (dev/output-schemas), which lists the fields it lifts to the top level. */
export const trigger = webhookTrigger<WorkspaceClient, MessagingEventType>({
	connection: workspaceConnection,
	webhooks: (client) => client.webhooks,
	scopes: { read: api.workspace.webhooks.get.scope, write: api.workspace.webhooks.create.scope },
	attach: attachMedia,
	attachedOutput: mediaOutput,
	subscription: (context) => chosenEvents(context, MESSAGING_EVENTS, 'instanceIds'),
	gathering: chosenGathering,
	subject: (event) => ({ instanceId: instanceOfEvent(event.type, event.data) }),
	check: checkMessageFilters,
	skip: (context, event, options) =>
		skipHandedOverChat(context, event, options) ??
		skipUnwantedReply(context, event, options) ??
		skipFilteredMessage(context, event, options) ??
		skipPollOrCall(context, event, options) ??
		skipUnwantedLabelChange(context, event, options) ??
		skipUnwantedContactAct(context, event, options) ??
		skipOtherCampaign(context, event, options),
	highlights: replyHighlights,
});

export class MultichannelTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Multichannel Trigger',
		name: 'multichannelTrigger',
		icon: {
			light: 'file:../../icons/multichannel.svg',
			dark: 'file:../../icons/multichannel.dark.svg',
		},
		...triggerBasics,
		subtitle: eventsSubtitle(MESSAGING_EVENTS),
		// n8n's node creator shows this for the Multichannel node too (one entry for both): it names the actions.
		description:
			'Send messages and manage instances, groups and contacts in Multichannel, or start a workflow on their events',
		defaults: {
			name: 'Multichannel Trigger',
		},
		credentials: [
			{
				name: 'multichannelApi',
				required: true,
			},
		],
		properties: [
			eventsProperty(MESSAGING_EVENTS, ['message.received']),
			chosenItemsProperty({
				label: 'Instance',
				name: 'instanceIds',
				loadOptionsMethod: 'getInstances',
			}),
			{
				...triggerOptions,
				options: [
					...(triggerOptions.options ?? []),
					...mediaOptions,
					...forReceivedMessages([gatherOption, ...replyOptions, ...messageFilterOptions]),
					handOverOption,
					...pollCallOptions,
					...labelOptions,
					...contactActOptions,
					...campaignOptions,
				],
			},
		],
	};

	methods = {
		loadOptions: {
			/** The workspace's instances, for the instance filter. */
			async getInstances(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
				return await optionsFrom(this, {
					connection: workspaceConnection,
					scope: api.workspace.instances.list.scope,
					noun: 'instance',
					list: async (client) => await client.instances.list.all({}, { max: 500 }),
					toOption: (instance) => ({
						name: instance.name ? `${instance.name} (${instance.id})` : instance.id,
						value: instance.id,
					}),
				});
			},
			/** The workspace's labels, for the Labels filter. */
			async getLabels(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
				return await optionsFrom(this, {
					connection: workspaceConnection,
					scope: api.workspace.labels.list.scope,
					noun: 'label',
					list: async (client) => await client.labels.list.all({}, { max: 100 }),
					toOption: (label) => ({ name: label.name, value: label.id }),
				});
			},
			/** The workspace's campaigns, newest first, for the Campaigns filter. */
			async getCampaigns(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
				return await optionsFrom(this, {
					connection: workspaceConnection,
					scope: api.workspace.campaigns.list.scope,
					noun: 'campaign',
					list: async (client) => await client.campaigns.list.all({}, { max: 200 }),
					toOption: (campaign) => ({
						name: `${campaign.name} (${campaign.status})`,
						value: campaign.id,
					}),
				});
			},
		},
	};

	webhookMethods = trigger.webhookMethods;

	webhook = trigger.webhook;
}
