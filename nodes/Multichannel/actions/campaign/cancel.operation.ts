import { oneCampaignOperation } from './oneCampaign';

export const option = {
	name: 'Cancel',
	value: 'cancel',
	action: 'Cancel a campaign',
	description:
		'Stop a campaign for good before its next send: its recipients not yet sent to are skipped (cancelled). A completed campaign cannot be cancelled.',
};

export const { description, scope, output, fields, execute } = oneCampaignOperation(
	'cancel',
	'The campaign to cancel',
);
