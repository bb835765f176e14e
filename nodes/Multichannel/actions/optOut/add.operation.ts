import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { optionsCollection } from '../../../shared/collections';
import type { OperationContext } from '../../../shared/resources';
import { phoneField, phoneFieldNames, phoneOf } from './fields';

export const option = {
	name: 'Add',
	value: 'add',
	action: 'Opt out a number',
	description:
		'Opt a phone number out of every campaign of the workspace (a plain message to it still goes); one already opted out stays as it is',
};

export const description: INodeProperties[] = [
	{ ...phoneField, description: `${phoneField.description}: no campaign sends to it from now on` },
	optionsCollection([
		{
			displayName: 'Reason',
			name: 'reason',
			type: 'string',
			default: '',
			placeholder: 'e.g. Asked by phone',
			description: 'Why, for your records (up to 500 characters)',
		},
	]),
];

export const scope = api.workspace.optOuts.add.scope;
export const readsNumbers = true;
export const output = api.workspace.optOuts.add.response;

export const fields = { ...phoneFieldNames, 'body.reason': 'Reason' };

export async function execute(this: IExecuteFunctions, item: OperationContext<WorkspaceClient>) {
	const reason = String(item.options.reason ?? '').trim();
	return await item.client.optOuts.add({
		body: { phone: phoneOf(this, item), ...(reason ? { reason } : {}) },
	});
}
