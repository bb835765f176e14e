import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { WorkspaceClient } from '../../../../src/client';
import type { OperationContext } from '../../../shared/resources';
import { compact } from '../../../shared/values';
import * as send from './send';

export const option = {
	name: 'Send Location',
	value: 'sendLocation',
	action: 'Send a location message',
	description: 'Send a place on the map',
};

export const description: INodeProperties[] = [
	send.fromField,
	send.toField,
	{
		displayName: 'Latitude',
		name: 'latitude',
		type: 'number',
		default: 0,
		required: true,
		typeOptions: { minValue: -90, maxValue: 90, numberPrecision: 6 },
		placeholder: 'e.g. 52.520008',
		description: 'Between -90 and 90',
	},
	{
		displayName: 'Longitude',
		name: 'longitude',
		type: 'number',
		default: 0,
		required: true,
		typeOptions: { minValue: -180, maxValue: 180, numberPrecision: 6 },
		placeholder: 'e.g. 13.404954',
		description: 'Between -180 and 180',
	},
	send.optionsField([
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			placeholder: 'e.g. Head office',
			description: 'The name of the place',
		},
		{
			displayName: 'Address',
			name: 'address',
			type: 'string',
			default: '',
			placeholder: 'e.g. Unter den Linden 1, Berlin',
			description: 'The address shown under the name',
		},
	]),
];

export const { scope, readsNumbers, output, concurrent } = send.operationBasics('sendLocation');

export const fields = {
	...send.fieldNames,
	'body.latitude': 'Latitude',
	'body.longitude': 'Longitude',
	'body.name': 'Name',
	'body.address': 'Address',
};

export async function execute(this: IExecuteFunctions, item: OperationContext<WorkspaceClient>) {
	const { itemIndex, options } = item;
	const { instanceId, to } = send.target(this, item);
	const body = {
		to,
		latitude: Number(this.getNodeParameter('latitude', itemIndex)),
		longitude: Number(this.getNodeParameter('longitude', itemIndex)),
		...send.quoted(item.options),
		...compact({
			name: options.name as string | undefined,
			address: options.address as string | undefined,
		}),
	};
	return await send.message(this, item, 'sendLocation', instanceId, body);
}
