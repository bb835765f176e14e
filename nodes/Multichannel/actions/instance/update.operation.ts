import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { MAX_REJECT_TEXT } from '../../../../src/client/resources/calls';
import { HAND_OVER_QUIET_MINUTES } from '../../../../src/client/resources/hand-overs';
import { updateFieldsCollection } from '../../../shared/collections';
import { requireChanges } from '../../../shared/input-errors';
import { locatorValue } from '../../../shared/locator';
import type { OperationContext } from '../../../shared/resources';
import { descriptionField } from './fields';
import { compact } from '../../../shared/values';
import { instanceLocator } from './locator';

export const option = {
	name: 'Update',
	value: 'update',
	action: 'Update an instance',
	description:
		'Change the name or description of an instance, have it reject every call, or set how long a chat stays with a person',
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance to update' },
	updateFieldsCollection([
		descriptionField,
		{
			displayName: 'Hand-Over Quiet Period (Minutes)',
			name: 'handOverQuietMinutes',
			type: 'number',
			default: 30,
			typeOptions: { minValue: HAND_OVER_QUIET_MINUTES.min, maxValue: HAND_OVER_QUIET_MINUTES.max },
			description:
				"How long a chat handed over to a person stays so after the last answer from the business's own phone; then it is given back by itself",
		},
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			placeholder: 'e.g. Sales',
			description: 'A name to recognise the instance by',
		},
		{
			displayName: 'Reject Calls',
			name: 'rejectCalls',
			type: 'boolean',
			default: true,
			description:
				'Whether every incoming call is rejected at once (the trigger still gets Call Received and Call Rejected)',
		},
		{
			displayName: 'Reject Calls Message',
			name: 'rejectCallsText',
			type: 'string',
			default: '',
			typeOptions: { rows: 2 },
			placeholder: "e.g. We can't take calls here. Please write to us instead.",
			description: `Sent to each caller whose call is rejected by Reject Calls (at most ${MAX_REJECT_TEXT} characters); empty sends none`,
		},
	]),
];

export const scope = api.workspace.instances.update.scope;
export const output = api.workspace.instances.update.response;

export const fields = {
	instanceId: 'Instance',
	'body.name': 'Name',
	'body.description': 'Description',
	'body.rejectCalls': 'Reject Calls',
	'body.rejectCallsText': 'Reject Calls Message',
	'body.handOverQuietMinutes': 'Hand-Over Quiet Period (Minutes)',
};

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex }: OperationContext<WorkspaceClient>,
) {
	const update = this.getNodeParameter('updateFields', itemIndex, {}) as {
		name?: string;
		description?: string;
		rejectCalls?: boolean;
		rejectCallsText?: string;
		handOverQuietMinutes?: number;
	};
	const text = update.rejectCallsText?.trim();
	const body = {
		...compact({
			name: update.name?.trim(),
			description: update.description,
			rejectCalls: update.rejectCalls,
			handOverQuietMinutes: update.handOverQuietMinutes,
		}),
		// Given but empty: no text any more.
		...(text === undefined ? {} : { rejectCallsText: text === '' ? null : text }),
	};
	requireChanges(this.getNode(), itemIndex, body);
	return await client.instances.update({
		instanceId: locatorValue(this, 'instanceId', itemIndex),
		body,
	});
}
