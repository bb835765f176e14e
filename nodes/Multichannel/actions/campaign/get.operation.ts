import { oneCampaignOperation } from './oneCampaign';

export const option = {
	name: 'Get',
	value: 'get',
	action: 'Get a campaign',
	description:
		'Get a campaign: its state (scheduled, running, paused, completed, cancelled) and how many recipients are queued, sent, delivered, read, replied, failed and skipped',
};

export const { description, scope, output, fields, execute } = oneCampaignOperation(
	'get',
	'The campaign to get',
);
