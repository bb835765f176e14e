import { oneCampaignOperation } from './oneCampaign';

export const option = {
	name: 'Pause',
	value: 'pause',
	action: 'Pause a campaign',
	description:
		'Stop a running campaign before its next send, until Resume; pausing a paused one changes nothing',
};

export const { description, scope, output, fields, execute } = oneCampaignOperation(
	'pause',
	'The running campaign to pause',
);
