import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { RECIPIENT_STATES } from '../../../../src/client/resources/campaigns';
import { filtersCollection } from '../../../shared/collections';
import { maxResults, returnAllOrLimit } from '../../../shared/get-many';
import { locatorValue } from '../../../shared/locator';
import { listItem } from '../../../shared/output';
import type { OperationContext } from '../../../shared/resources';
import { capitalised } from '../../../shared/words';
import { campaignFieldNames, campaignLocator } from './locator';

export const option = {
	name: 'Get Recipients',
	value: 'getRecipients',
	action: 'Get campaign recipients',
	description:
		"List a campaign's recipients in the order they were added, each with its state, the reason it failed or was skipped, and the message sent to it",
};

export const description: INodeProperties[] = [
	{ ...campaignLocator, description: 'The campaign whose recipients to get' },
	...returnAllOrLimit(),
	filtersCollection([
		{
			displayName: 'State',
			name: 'state',
			type: 'options',
			default: 'failed',
			options: RECIPIENT_STATES.map((state) => ({ name: capitalised(state), value: state })),
			description:
				'Only the recipients in this state (Sent: no receipt yet; Skipped: opted out, or the campaign was cancelled)',
		},
	]),
];

export const scope = api.workspace.campaigns.listRecipients.scope;
export const output = listItem(api.workspace.campaigns.listRecipients);

export const fields = { ...campaignFieldNames, 'query.state': 'State' };

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	const { state } = this.getNodeParameter('filters', itemIndex, {}) as {
		state?: (typeof RECIPIENT_STATES)[number];
	};
	return await client.campaigns.listRecipients.all(
		{
			campaignId: locatorValue(this, 'campaignId', itemIndex),
			query: state ? { state } : {},
		},
		{ max: maxResults(this, itemIndex) },
	);
}
