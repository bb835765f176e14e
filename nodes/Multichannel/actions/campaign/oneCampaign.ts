import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { locatorValue } from '../../../shared/locator';
import type { OperationContext } from '../../../shared/resources';
import { campaignFieldNames, campaignLocator } from './locator';

/** Get, Pause, Resume and Cancel: one campaign by its ID, answered with the campaign and its counts. */
type CampaignCall = 'get' | 'pause' | 'resume' | 'cancel';

/** What such an operation file exports beside its option: the Campaign field, scope, output, execute. */
export function oneCampaignOperation(call: CampaignCall, fieldDescription: string) {
	const description: INodeProperties[] = [{ ...campaignLocator, description: fieldDescription }];
	return {
		description,
		scope: api.workspace.campaigns[call].scope,
		output: api.workspace.campaigns[call].response,
		fields: campaignFieldNames,
		async execute(
			this: IExecuteFunctions,
			{ client, itemIndex }: OperationContext<WorkspaceClient>,
		) {
			return await client.campaigns[call]({
				campaignId: locatorValue(this, 'campaignId', itemIndex),
			});
		},
	};
}
