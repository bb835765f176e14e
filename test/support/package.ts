/** The type names of the package's nodes besides the Multichannel node (`NODE_TYPE` in ./nodes). */
export const SHORT_LINK_NODE_TYPE = 'n8n-nodes-multichannel.multichannelShortLink';
export const AUTOMATION_NODE_TYPE = 'n8n-nodes-multichannel.multichannelAutomation';
export const TRIGGER_NODE_TYPES = [
	'n8n-nodes-multichannel.multichannelTrigger',
	'n8n-nodes-multichannel.multichannelShortLinkTrigger',
	'n8n-nodes-multichannel.multichannelAutomationTrigger',
];
