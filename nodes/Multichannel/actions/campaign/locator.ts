import { api } from '../../../../src/client';
import { workspaceConnection } from '../../../shared/connections';
import { pageQuery, searchMethod } from '../../../shared/lists';
import { locator } from '../../../shared/locator';

/** A campaign of the workspace: picked from its campaigns (newest first), or given by ID or expression. */
export const campaignLocator = locator({
	displayName: 'Campaign',
	name: 'campaignId',
	noun: 'campaign',
	searchListMethod: 'searchCampaigns',
	idPlaceholder: 'e.g. cmp_0123456789abcdef',
	description: 'The campaign, as Campaign → Create returned it (its ID)',
});

/** Fills "From List": the workspace's campaigns, newest first, by name and state; filtered here. */
export const searchCampaigns = searchMethod({
	connection: workspaceConnection,
	scope: api.workspace.campaigns.list.scope,
	noun: 'campaign',
	page: async (client, request) =>
		await client.campaigns.list({ query: pageQuery(request.cursor) }),
	toItem: (campaign) => ({ name: `${campaign.name} (${campaign.status})`, value: campaign.id }),
});

export const campaignFieldNames = { campaignId: 'Campaign' };
