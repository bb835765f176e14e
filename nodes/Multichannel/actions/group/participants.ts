import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { normalisePhoneNumbers } from '../../../shared/phone';
import type { OperationContext, OperationModule } from '../../../shared/resources';
import { locatorValue, simplifyField, simplifyWanted } from '../common';
import { instanceLocator } from '../instance/locator';
import { groupLocator, simplifyGroup } from './locator';

type Action = 'add' | 'remove' | 'promote' | 'demote';

const WORDING: Record<Action, { name: string; action: string; description: string }> = {
	add: {
		name: 'Add Participants',
		action: 'Add participants to a group',
		description: 'Add people to a group',
	},
	remove: {
		name: 'Remove Participants',
		action: 'Remove participants from a group',
		description: 'Remove people from a group',
	},
	promote: {
		name: 'Promote Participants',
		action: 'Promote participants of a group',
		description: 'Make participants admins of a group',
	},
	demote: {
		name: 'Demote Participants',
		action: 'Demote participants of a group',
		description: 'Make admins ordinary participants again',
	},
};

/**
 * The four participant operations: one request each, `{ action, participants }`. The output is the result
 * per number (ok, not found, not a participant…) with the group as it is afterwards.
 */
export function participantsOperation(action: Action): OperationModule<WorkspaceClient> {
	const wording = WORDING[action];
	const description: INodeProperties[] = [
		{ ...instanceLocator, description: 'The instance that is in the group (as an admin)' },
		groupLocator,
		{
			displayName: 'Participants',
			name: 'participants',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. +14155550123, +442079460958',
			description: 'Phone numbers with their country code, separated by commas',
		},
		simplifyField,
	];
	return {
		option: {
			name: wording.name,
			value: `${action}Participants`,
			action: wording.action,
			description: wording.description,
		},
		description,
		scope: api.workspace.groups.updateParticipants.scope,
		fields: { instanceId: 'Instance', groupId: 'Group', 'body.participants': 'Participants' },
		async execute(
			this: IExecuteFunctions,
			{ client, itemIndex }: OperationContext<WorkspaceClient>,
		) {
			const participants = normalisePhoneNumbers(
				this.getNodeParameter('participants', itemIndex),
				'Participants',
				itemIndex,
				this.getNode(),
			);
			const result = await client.groups.updateParticipants({
				instanceId: locatorValue(this, 'instanceId', itemIndex),
				groupId: locatorValue(this, 'groupId', itemIndex),
				body: { action, participants },
			});
			if (!simplifyWanted(this, itemIndex) || !result.group) return result;
			return { ...result, group: simplifyGroup(result.group) };
		},
	};
}
