import { oneCampaignOperation } from './oneCampaign';

export const option = {
	name: 'Resume',
	value: 'resume',
	action: 'Resume a campaign',
	description:
		'Go on sending a paused campaign, at its pace from now; resuming a running one changes nothing',
};

export const { description, scope, output, fields, execute } = oneCampaignOperation(
	'resume',
	'The paused campaign to resume',
);
