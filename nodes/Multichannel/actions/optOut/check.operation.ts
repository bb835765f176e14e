import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import type { OperationContext } from '../../../shared/resources';
import { phoneField, phoneFieldNames, phoneOf } from './fields';

export const option = {
	name: 'Check',
	value: 'check',
	action: 'Check whether a number opted out',
	description:
		'Whether a phone number is opted out of campaigns (optedOut), since when, and how: through the API or by answering a campaign with a stop word',
};

export const description: INodeProperties[] = [phoneField];

export const scope = api.workspace.optOuts.get.scope;
export const readsNumbers = true;
export const output = api.workspace.optOuts.get.response;

export const fields = phoneFieldNames;

export async function execute(this: IExecuteFunctions, item: OperationContext<WorkspaceClient>) {
	return await item.client.optOuts.get({ phone: phoneOf(this, item) });
}
