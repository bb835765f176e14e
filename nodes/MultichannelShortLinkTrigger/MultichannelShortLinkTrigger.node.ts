import {
	NodeConnectionTypes,
	type IDataObject,
	type ILoadOptionsFunctions,
	type INodePropertyOptions,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import {
	api,
	LINK_EVENTS,
	linkOfEvent,
	type LinkEventType,
	type ShortLinkClient,
} from '../../src/client';
import { Click } from '../../src/client/resources/links';
import { shortLinkConnection } from '../shared/connections';
import { eventsSubtitle } from '../shared/events';
import { linkName, optionsFrom } from '../shared/lists';
import {
	chosenEvents,
	eventsProperty,
	triggerOptions,
	triggerWebhook,
	webhookTrigger,
} from '../shared/trigger';

/** Exported for the output schema (dev/output-schemas), which lists the fields it lifts to the top level. */
export const trigger = webhookTrigger<ShortLinkClient, LinkEventType>({
	connection: shortLinkConnection,
	webhooks: (client) => client.webhooks,
	scopes: { read: api.shortLink.webhooks.get.scope, write: api.shortLink.webhooks.create.scope },
	subscription: (context) => chosenEvents(context, LINK_EVENTS, 'linkIds'),
	subject: (event) => ({ linkId: linkOfEvent(event.type, event.data) }),
	skip(context, event) {
		if (event.type !== 'link.clicked') return undefined;
		const click = (event.data.click ?? {}) as IDataObject;
		const skipBots = context.getNodeParameter('skipBotClicks', true) as boolean;
		return skipBots && click.bot === true ? 'click by a bot' : undefined;
	},
	// A click on a link that a send tracked: which message it was in, and who it was sent to.
	highlights: {
		output: Click.pick({ messageId: true, recipient: true }),
		of(event) {
			const click = (event.type === 'link.clicked' ? (event.data.click ?? {}) : {}) as IDataObject;
			return typeof click.messageId === 'string'
				? { messageId: click.messageId, recipient: click.recipient ?? null }
				: {};
		},
	},
});

export class MultichannelShortLinkTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Multichannel Short Link Trigger',
		name: 'multichannelShortLinkTrigger',
		icon: {
			light: 'file:../../icons/short-link.svg',
			dark: 'file:../../icons/short-link.dark.svg',
		},
		group: ['trigger'],
		// Version 2 behaves as 1: n8n evaluates an expression on every webhook call to a version-1 start node,
		// an expression isolate per delivery (docs/design.md, "What n8n evaluates for a delivery").
		version: [1, 2],
		defaultVersion: 2,
		subtitle: eventsSubtitle(LINK_EVENTS),
		// n8n's node creator shows this for the Short Link node too (one entry for both): it names the actions.
		description:
			'Create and manage Multichannel short links, or start a workflow when one is clicked, created, updated or deleted',
		defaults: {
			name: 'Multichannel Short Link Trigger',
		},
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'multichannelShortLinkApi',
				required: true,
			},
		],
		webhooks: [triggerWebhook],
		properties: [
			eventsProperty(LINK_EVENTS, ['link.clicked']),
			{
				displayName: 'Link Names or IDs',
				name: 'linkIds',
				type: 'multiOptions',
				typeOptions: { loadOptionsMethod: 'getLinks' },
				default: [],
				description:
					'Only events of these links; none chosen means every link. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
			{
				displayName: 'Skip Bot Clicks',
				name: 'skipBotClicks',
				type: 'boolean',
				default: true,
				description:
					'Whether to ignore clicks the service flagged as made by bots (link previews, crawlers)',
			},
			triggerOptions,
		],
	};

	methods = {
		loadOptions: {
			/** The workspace's short links, newest first, for the link filter. */
			async getLinks(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
				return await optionsFrom(this, {
					connection: shortLinkConnection,
					scope: api.shortLink.links.list.scope,
					noun: 'link',
					list: async (client) => await client.links.list.all({}, { max: 500 }),
					toOption: (link) => ({ name: linkName(link), value: link.id }),
				});
			},
		},
	};

	webhookMethods = trigger.webhookMethods;

	webhook = trigger.webhook;
}
