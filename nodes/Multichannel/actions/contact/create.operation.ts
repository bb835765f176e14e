import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { additionalFieldsCollection } from '../../../shared/collections';
import { normalisePhoneNumber } from '../../../shared/phone';
import type { OperationContext } from '../../../shared/resources';
import { locatorValue } from '../../../shared/locator';
import { compact, splitList } from '../../../shared/values';
import { instanceLocator } from '../instance/locator';
import { contactDetailFields, contactFieldNames } from './fields';

export const option = {
	name: 'Create',
	value: 'create',
	action: 'Create a contact',
	description: 'Save a phone number as a contact of an instance',
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance the contact belongs to' },
	{
		displayName: 'Phone Number',
		name: 'phoneNumber',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. +14155550123',
		description: 'With its country code; spaces, dashes and a leading 00 are fine',
	},
	additionalFieldsCollection(contactDetailFields),
];

export const scope = api.workspace.contacts.create.scope;
export const readsNumbers = true;
export const output = api.workspace.contacts.create.response;

export const fields = contactFieldNames;

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex, defaultCountry }: OperationContext<WorkspaceClient>,
) {
	const phoneNumber = normalisePhoneNumber(
		this.getNodeParameter('phoneNumber', itemIndex),
		'Phone Number',
		itemIndex,
		this.getNode(),
		defaultCountry,
	);
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as {
		name?: string;
		email?: string;
		tags?: string;
	};
	const body = {
		phoneNumber,
		...compact({ name: additional.name?.trim(), email: additional.email?.trim() }),
		...(additional.tags !== undefined ? { tags: splitList(additional.tags) } : {}),
	};
	return await client.contacts.create({
		instanceId: locatorValue(this, 'instanceId', itemIndex),
		body,
	});
}
