import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { normalisePhoneNumbers } from '../../../shared/phone';
import type { OperationContext } from '../../../shared/resources';
import { locatorValue } from '../../../shared/locator';
import { instanceLocator } from '../instance/locator';
import { listItem } from '../../../shared/output';

export const option = {
	name: 'Check Numbers Exist',
	value: 'checkNumbers',
	action: 'Check whether numbers are on the channel',
	description: 'Find out which phone numbers can receive messages on the channel',
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance to check with' },
	{
		displayName: 'Phone Numbers',
		name: 'phoneNumbers',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. +14155550123, +442079460958',
		description: 'Up to 500 numbers with their country code, separated by commas',
		hint: 'Outputs one item per number, with "exists" true or false',
	},
];

export const scope = api.workspace.contacts.checkNumbers.scope;
export const readsNumbers = true;
export const output = listItem(api.workspace.contacts.checkNumbers);

export const fields = { instanceId: 'Instance', 'body.phoneNumbers': 'Phone Numbers' };

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex, defaultCountry }: OperationContext<WorkspaceClient>,
) {
	const phoneNumbers = normalisePhoneNumbers(
		this.getNodeParameter('phoneNumbers', itemIndex),
		'Phone Numbers',
		itemIndex,
		this.getNode(),
		defaultCountry,
	);
	const { data } = await client.contacts.checkNumbers({
		instanceId: locatorValue(this, 'instanceId', itemIndex),
		body: { phoneNumbers },
	});
	return data;
}
