import {
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
	batchingTriggerOptions,
	chosenBatching,
	chosenEvents,
	chosenItemsProperty,
	eventsProperty,
	triggerBasics,
	webhookTrigger,
} from '../shared/trigger';

/** Exported for the output schema (dev/output-schemas), which lists the fields it lifts to the top level. */
export const trigger = webhookTrigger<ShortLinkClient, LinkEventType>({
	connection: shortLinkConnection,
	webhooks: (client) => client.webhooks,
	scopes: { read: api.shortLink.webhooks.get.scope, write: api.shortLink.webhooks.create.scope },
	subscription: (context) => chosenEvents(context, LINK_EVENTS, 'linkIds'),
	batching: chosenBatching,
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
		...triggerBasics,
		subtitle: eventsSubtitle(LINK_EVENTS),
		// n8n's node creator shows this for the Short Link node too (one entry for both): it names the actions.
		description:
			'Create and manage Multichannel short links, or start a workflow when one is clicked, created, updated or deleted',
		defaults: {
			name: 'Multichannel Short Link Trigger',
		},
		credentials: [
			{
				name: 'multichannelShortLinkApi',
				required: true,
			},
		],
		properties: [
			eventsProperty(LINK_EVENTS, ['link.clicked']),
			chosenItemsProperty({ label: 'Link', name: 'linkIds', loadOptionsMethod: 'getLinks' }),
			{
				displayName: 'Skip Bot Clicks',
				name: 'skipBotClicks',
				type: 'boolean',
				default: true,
				description:
					'Whether to ignore clicks the service flagged as made by bots (link previews, crawlers)',
			},
			batchingTriggerOptions,
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
