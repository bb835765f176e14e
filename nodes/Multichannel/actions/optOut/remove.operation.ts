import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import type { OperationContext } from '../../../shared/resources';
import { phoneField, phoneFieldNames, phoneOf } from './fields';

export const option = {
	name: 'Remove',
	value: 'remove',
	action: 'Opt in a number again',
	description:
		'Opt a phone number back in: later campaigns send to it again (recipients already skipped stay skipped)',
};

export const description: INodeProperties[] = [phoneField];

export const scope = api.workspace.optOuts.remove.scope;
export const readsNumbers = true;
export const output = api.workspace.optOuts.remove.response;

export const fields = phoneFieldNames;

export async function execute(this: IExecuteFunctions, item: OperationContext<WorkspaceClient>) {
	return await item.client.optOuts.remove({ phone: phoneOf(this, item) });
}
