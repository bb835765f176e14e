import type { api } from '../../../src/client/api';
import {
	campaignOfReference,
	cancelCampaign,
	createCampaign,
	pauseCampaign,
	presentCampaign,
	requireCampaign,
	resumeCampaign,
	startCampaign,
} from '../../campaigns/campaigns';
import { addRecipients, presentRecipient, recipientsFrom } from '../../campaigns/recipients';
import { requireInstance } from '../../channel/instance-records';
import { validationFailed } from '../../errors';
import { urlProblem } from '../../outbound/policy';
import { paginateWalk, type ResourceHandlers } from './context';

/** Campaigns (sandbox/campaigns/): made, filled, started, paused, resumed, cancelled, read. */
export const campaignHandlers: ResourceHandlers<typeof api.workspace.campaigns> = {
	create: ({ core, workspaceId, params, body }) => {
		requireInstance(core, workspaceId, params.instanceId);
		const { recipients = [], ...input } = body;
		// Checked now, as a media send's URL is: a refused one would fail every recipient later.
		const problem =
			'media' in input.message && urlProblem(input.message.media.url, core.outbound.media.policy);
		if (problem) throw validationFailed([{ field: 'body.message.media.url', message: problem }]);
		const found = campaignOfReference(core, workspaceId, params.instanceId, input);
		if (found) return { campaign: presentCampaign(found), created: false, recipients: [] };
		const campaign = createCampaign(core, workspaceId, params.instanceId, input);
		const results = addRecipients(core, campaign, recipients);
		return { campaign: presentCampaign(campaign), created: true, recipients: results };
	},

	addRecipients: ({ core, workspaceId, params, body }) => {
		const campaign = requireCampaign(core, workspaceId, params.campaignId);
		const results = addRecipients(core, campaign, body.recipients);
		return { campaign: presentCampaign(campaign), recipients: results };
	},

	start: ({ core, workspaceId, params, body }) => {
		const campaign = requireCampaign(core, workspaceId, params.campaignId);
		startCampaign(core, campaign, body.startAt);
		return presentCampaign(campaign);
	},

	pause: ({ core, workspaceId, params }) => {
		const campaign = requireCampaign(core, workspaceId, params.campaignId);
		pauseCampaign(core, campaign);
		return presentCampaign(campaign);
	},

	resume: ({ core, workspaceId, params }) => {
		const campaign = requireCampaign(core, workspaceId, params.campaignId);
		resumeCampaign(core, campaign);
		return presentCampaign(campaign);
	},

	cancel: ({ core, workspaceId, params }) => {
		const campaign = requireCampaign(core, workspaceId, params.campaignId);
		cancelCampaign(core, campaign);
		return presentCampaign(campaign);
	},

	get: ({ core, workspaceId, params }) =>
		presentCampaign(requireCampaign(core, workspaceId, params.campaignId)),

	list: ({ core, workspaceId, query }) => {
		const campaigns = core.store
			.all(
				'campaigns',
				(campaign) =>
					campaign.workspaceId === workspaceId &&
					(query.status === undefined || campaign.status === query.status) &&
					(query.instanceId === undefined || campaign.instanceId === query.instanceId),
			)
			.reverse();
		return paginateWalk(
			function* (after) {
				const start = after
					? campaigns.findIndex((campaign) => campaign.id === after.after) + 1
					: 0;
				for (let position = start; position < campaigns.length; position++) {
					yield { item: campaigns[position], position };
				}
			},
			query,
			presentCampaign,
		);
	},

	listRecipients: ({ core, workspaceId, params, query }) => {
		const campaign = requireCampaign(core, workspaceId, params.campaignId);
		return paginateWalk(
			function* (after) {
				for (const recipient of recipientsFrom(core, campaign, after ? after.position + 1 : 0)) {
					if (query.state === undefined || recipient.state === query.state) {
						yield { item: recipient, position: recipient.position };
					}
				}
			},
			query,
			presentRecipient,
		);
	},
};
