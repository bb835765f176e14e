import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { WorkspaceClient } from '../../../../src/client';
import { normalisePhoneNumber } from '../../../shared/phone';
import type { OperationContext } from '../../../shared/resources';

/** The phone number every opt-out operation but Get Many names, and how it is read. */
export const phoneField: INodeProperties = {
	displayName: 'Phone Number',
	name: 'phone',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. +14155550123',
	description:
		"The contact's phone number, with its country code or as written in the Default Country (opt-outs hold numbers, for every campaign of the workspace)",
};

export const phoneFieldNames = { phone: 'Phone Number', 'body.phone': 'Phone Number' };

/** The item's Phone Number in E.164, or an input error naming the field and the item. */
export function phoneOf(
	context: IExecuteFunctions,
	{ itemIndex, defaultCountry }: OperationContext<WorkspaceClient>,
): string {
	return normalisePhoneNumber(
		context.getNodeParameter('phone', itemIndex),
		'Phone Number',
		itemIndex,
		context.getNode(),
		defaultCountry,
	);
}
