import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { normalisePhoneNumber } from '../../../shared/phone';
import type { OperationContext } from '../../../shared/resources';
import { locatorValue } from '../../../shared/locator';
import { instanceLocator } from './locator';

export const option = {
	name: 'Connect',
	value: 'connect',
	action: 'Connect an instance',
	description: 'Start connecting a phone to an instance, with a QR code or a pairing code',
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance to connect' },
	{
		displayName: 'Method',
		name: 'method',
		type: 'options',
		default: 'qr',
		options: [
			{
				name: 'QR Code',
				value: 'qr',
				description: 'Get a QR code to scan with the phone',
			},
			{
				name: 'Pairing Code',
				value: 'pairing_code',
				description: 'Get a code to enter on the phone of the given number',
			},
		],
		description: 'How the phone connects',
	},
	{
		displayName: 'Phone Number',
		name: 'phoneNumber',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. +14155550123',
		hint: 'The number of the phone that will enter the pairing code, with its country code',
		displayOptions: { show: { method: ['pairing_code'] } },
	},
];

export const scope = api.workspace.instances.connect.scope;
export const readsNumbers = true;
export const output = api.workspace.instances.connect.response;

export const fields = {
	instanceId: 'Instance',
	'body.method': 'Method',
	'body.phoneNumber': 'Phone Number',
};

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex, defaultCountry }: OperationContext<WorkspaceClient>,
) {
	const instanceId = locatorValue(this, 'instanceId', itemIndex);
	const method = this.getNodeParameter('method', itemIndex) as 'qr' | 'pairing_code';
	const body =
		method === 'pairing_code'
			? {
					method,
					phoneNumber: normalisePhoneNumber(
						this.getNodeParameter('phoneNumber', itemIndex),
						'Phone Number',
						itemIndex,
						this.getNode(),
						defaultCountry,
					),
				}
			: { method };
	return await client.instances.connect({ instanceId, body });
}
