import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { additionalFieldsCollection } from '../../../shared/collections';
import type { OperationContext } from '../../../shared/resources';
import { locatorValue } from '../../../shared/locator';
import { simplifyField, simplifyWanted } from '../simplify';
import { instanceLocator } from '../instance/locator';
import { groupInfoBody, groupInfoOptions, type GroupInfo } from './info';
import { participantsField, participantsOf } from './participants';
import { SimpleGroup, simplifyGroup } from './simplify';

export const option = {
	name: 'Create',
	value: 'create',
	action: 'Create a group',
	description: 'Create a group with the given participants',
};

export const description: INodeProperties[] = [
	{ ...instanceLocator, description: 'The instance that creates (and owns) the group' },
	{
		displayName: 'Subject',
		name: 'subject',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. Spring launch team',
		description: 'The name of the group, up to 100 characters',
	},
	participantsField,
	additionalFieldsCollection([...groupInfoOptions]),
	simplifyField,
];

export const scope = api.workspace.groups.create.scope;
export const readsNumbers = true;
export const output = SimpleGroup;

export const fields = {
	instanceId: 'Instance',
	'body.subject': 'Subject',
	'body.participants': 'Participants',
	'body.description': 'Description',
};

export async function execute(
	this: IExecuteFunctions,
	{ client, itemIndex, defaultCountry }: OperationContext<WorkspaceClient>,
) {
	const instanceId = locatorValue(this, 'instanceId', itemIndex);
	const participants = participantsOf(this, itemIndex, defaultCountry);
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as GroupInfo;
	const group = await client.groups.create({
		instanceId,
		body: {
			subject: (this.getNodeParameter('subject', itemIndex) as string).trim(),
			participants,
			...groupInfoBody(additional),
		},
	});
	return simplifyWanted(this, itemIndex) ? simplifyGroup(group) : group;
}
