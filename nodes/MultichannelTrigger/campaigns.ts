import type { INodeProperties } from 'n8n-workflow';

import type { EventEnvelope } from '../../src/client';
import type { ChosenOptions, TriggerContext } from '../shared/trigger';
import { splitList } from '../shared/values';

/**
 * The Campaigns filter: only the events of chosen campaigns (one workflow follows up one campaign). It looks at
 * the campaign events and at opt-outs (an opt-out by a stop word names the campaign answered; one through the API
 * names none, and is skipped when campaigns are chosen); every other event passes. An event filtered out is
 * acknowledged and starts nothing, as the message filters do (filters.ts).
 */

const CAMPAIGN_EVENTS = [
	'campaign.completed',
	'campaign.recipient.failed',
	'contact.opted_out',
	'contact.opted_in',
];

export const campaignOptions: INodeProperties[] = [
	{
		displayName: 'Campaign Names or IDs',
		name: 'campaignIds',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getCampaigns' },
		default: [],
		displayOptions: { show: { '/events': [...CAMPAIGN_EVENTS, '*'] } },
		description:
			'Only events of these campaigns: completed, a recipient failed, or a contact opted out or back in by answering them (none chosen: every campaign; an opt-out through the API belongs to none). Other events are not filtered. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
];

/** The campaign an event is about: the campaign itself, or the one a recipient or an opt-out belongs to. */
function campaignOf(event: EventEnvelope): string | undefined {
	const id = event.type === 'campaign.completed' ? event.data.id : event.data.campaignId;
	return typeof id === 'string' && id !== '' ? id : undefined;
}

/** The trigger's `skip` for the Campaigns filter: why a campaign or opt-out event does not start this workflow. */
export function skipOtherCampaign(
	_context: TriggerContext,
	event: EventEnvelope,
	options: ChosenOptions,
): string | undefined {
	if (!CAMPAIGN_EVENTS.includes(event.type)) return undefined;
	const wanted = splitList(options.campaignIds ?? []);
	if (wanted.length === 0) return undefined;
	const campaign = campaignOf(event);
	if (campaign === undefined) return 'no campaign (Campaigns)';
	return wanted.includes(campaign) ? undefined : 'a campaign not among Campaigns';
}
