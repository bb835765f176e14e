import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { WorkspaceClient } from '../../../../src/client';
import { PER_MESSAGE } from '../../../../src/client/resources/message-sends';
import { invalidValue } from '../../../shared/input-errors';
import { normalisePhoneNumbers } from '../../../shared/phone';
import type { OperationContext } from '../../../shared/resources';
import { compact } from '../../../shared/values';
import * as send from './send';

export const option = {
	name: 'Send Contact Card',
	value: 'sendContactCard',
	action: 'Send a contact card',
	description: 'Send one or more contact cards (vCards)',
};

export const description: INodeProperties[] = [
	send.fromField,
	send.toField,
	{
		displayName: 'Contacts',
		name: 'contacts',
		type: 'fixedCollection',
		placeholder: 'Add Contact',
		default: {},
		required: true,
		typeOptions: {
			multipleValues: true,
			minRequiredFields: PER_MESSAGE.contactCards.min,
			maxAllowedFields: PER_MESSAGE.contactCards.max,
		},
		description: `The contacts to share, up to ${PER_MESSAGE.contactCards.max}`,
		options: [
			{
				displayName: 'Contact',
				name: 'contact',
				values: [
					{
						displayName: 'Name',
						name: 'name',
						type: 'string',
						default: '',
						required: true,
						placeholder: 'e.g. Ana Silva',
					},
					{
						displayName: 'Phone Numbers',
						name: 'phoneNumbers',
						type: 'string',
						default: '',
						required: true,
						placeholder: 'e.g. +14155550123, +442079460958',
						description: 'One or more numbers with their country code, separated by commas',
					},
					{
						displayName: 'Organization',
						name: 'organization',
						type: 'string',
						default: '',
						placeholder: 'e.g. Acme Inc.',
					},
					{
						displayName: 'Email',
						name: 'email',
						type: 'string',
						default: '',
						placeholder: 'e.g. nathan@example.com',
					},
				],
			},
		],
	},
	send.optionsField(),
];

export const { scope, readsNumbers, output, concurrent } = send.operationBasics('sendContactCard');

export const fields = { ...send.fieldNames, 'body.contacts': 'Contacts' };

interface ContactInput {
	name?: string;
	phoneNumbers?: string;
	organization?: string;
	email?: string;
}

export async function execute(this: IExecuteFunctions, item: OperationContext<WorkspaceClient>) {
	const { itemIndex, defaultCountry } = item;
	const { instanceId, to } = send.target(this, item);
	const given = this.getNodeParameter('contacts.contact', itemIndex, []) as ContactInput[];
	if (given.length === 0) {
		throw invalidValue(this.getNode(), 'Contacts', itemIndex, 'add at least one contact');
	}
	const contacts = given.map((contact, index) => ({
		name: (contact.name ?? '').trim(),
		phoneNumbers: normalisePhoneNumbers(
			contact.phoneNumbers,
			`Phone Numbers (contact ${index + 1})`,
			itemIndex,
			this.getNode(),
			defaultCountry,
		),
		...compact({ organization: contact.organization?.trim(), email: contact.email?.trim() }),
	}));
	const body = { to, contacts, ...send.quoted(item.options) };
	return await send.message(this, item, 'sendContactCard', instanceId, body);
}
