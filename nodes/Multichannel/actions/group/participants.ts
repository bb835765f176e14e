import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { api, type WorkspaceClient } from '../../../../src/client';
import { ParticipantsResult } from '../../../../src/client/resources/groups';
import { normalisePhoneNumbers } from '../../../shared/phone';
import type { OperationContext, OperationModule } from '../../../shared/resources';
import { simplifyField, simplifyWanted } from '../simplify';
import { instanceLocator } from '../instance/locator';
import { groupLocator, groupOf } from './locator';
import { SimpleGroup, simplifyGroup } from './simplify';

/**
 * What the four participant operations (add, remove, promote, demote) share: the same fields, and one request
 * each, `{ action, participants }`. The output is the result per number (ok, not found, not a participant…)
 * with the group as it is afterwards. Each operation file holds its own Operation entry and its action.
 */

/** Phone numbers of people, for these operations and for Create. */
export const participantsField: INodeProperties = {
	displayName: 'Participants',
	name: 'participants',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. +14155550123, +442079460958',
	description:
		'Phone numbers, separated by commas: with their country code, or as written in the Default Country',
};

/** The numbers of the Participants field, normalised, or an input error naming it and the item. */
export function participantsOf(
	context: IExecuteFunctions,
	itemIndex: number,
	defaultCountry: string | undefined,
): string[] {
	return normalisePhoneNumbers(
		context.getNodeParameter('participants', itemIndex),
		'Participants',
		itemIndex,
		context.getNode(),
		defaultCountry,
	);
}

/** Everything of a participant operation but its entry in the Operation dropdown. */
export function participantsOperation(
	action: 'add' | 'remove' | 'promote' | 'demote',
): Omit<OperationModule<WorkspaceClient>, 'option'> {
	return {
		description: [
			{ ...instanceLocator, description: 'The instance that is in the group (as an admin)' },
			groupLocator,
			participantsField,
			simplifyField,
		],
		scope: api.workspace.groups.updateParticipants.scope,
		output: ParticipantsResult.extend({ group: SimpleGroup.optional() }),
		fields: { instanceId: 'Instance', groupId: 'Group', 'body.participants': 'Participants' },
		readsNumbers: true,
		async execute(
			this: IExecuteFunctions,
			{ client, itemIndex, defaultCountry }: OperationContext<WorkspaceClient>,
		) {
			const result = await client.groups.updateParticipants({
				...groupOf(this, itemIndex),
				body: { action, participants: participantsOf(this, itemIndex, defaultCountry) },
			});
			if (!simplifyWanted(this, itemIndex) || !result.group) return result;
			return { ...result, group: simplifyGroup(result.group) };
		},
	};
}
