import { z } from 'zod/v4';

import { operation } from '../../../src/client/operation';
import { Call } from '../../../src/client/resources/calls';
import { PollVote } from '../../../src/client/resources/polls';
import { pathParams, PhoneNumber, text } from '../../../src/client/schemas';
import type { SandboxCore } from '../../core';
import { conflict, HttpError } from '../../errors';
import type { MessageRecord } from '../../store/store';
import { hangUp, presentCall, receiveCall, requireCall } from '../../channel/calls';
import {
	requireConnected,
	requireInstance,
	requireGroup,
	requireMessage,
} from '../../channel/instance-records';
import { type ResourceHandlers } from './context';
import { castVote, chosenIndexes } from '../../channel/polls';
import { GROUP_ID_PATTERN, isGroupChatId } from '../../../src/client/chat-ids';

/**
 * Sandbox-only endpoints for what a contact's phone does with polls and calls: voting on a poll the instance
 * sent (`poll.voted`), calling the instance (`call.received`) and hanging up (`call.missed`). Served beside the
 * other sandbox-only endpoints (sandbox-api.ts).
 */

export const pollsCallsOperations = {
	vote: operation({
		method: 'POST',
		path: '/sandbox/instances/{instanceId}/messages/{messageId}/vote',
		summary:
			'Sandbox only: a recipient votes on a poll the instance sent (poll.voted); a second vote replaces the first, an empty one withdraws it',
		scope: 'messaging:write',
		params: pathParams('instanceId', 'messageId'),
		body: z.strictObject({
			options: z
				.array(z.union([z.number().int().min(0), text({ min: 1, max: 100 })]))
				.max(12)
				.describe('The options chosen, by text or by index from 0; empty: the vote is withdrawn'),
			from: PhoneNumber.optional().describe(
				'Who votes; the recipient of the poll by default (required for a poll sent to a group, and a member of it: anyone else is a 409 `not_a_member`, not counted)',
			),
		}),
		response: PollVote,
		status: 201,
	}),
	call: operation({
		method: 'POST',
		path: '/sandbox/instances/{instanceId}/calls',
		summary:
			"Sandbox only: a contact calls the instance's number (call.received); unanswered within the ring time it is missed",
		scope: 'messaging:write',
		params: pathParams('instanceId'),
		body: z.strictObject({
			from: PhoneNumber,
			media: z.enum(['voice', 'video']).default('voice'),
			groupId: z
				.string()
				.regex(GROUP_ID_PATTERN, 'must be a group id ending in @g.us')
				.optional()
				.describe('A group call in this group (the instance is in it)'),
		}),
		response: Call,
		status: 201,
	}),
	hangUp: operation({
		method: 'POST',
		path: '/sandbox/instances/{instanceId}/calls/{callId}/hang-up',
		summary: 'Sandbox only: the caller hangs up; a call still ringing is missed (call.missed)',
		scope: 'messaging:write',
		params: pathParams('instanceId', 'callId'),
		body: z.strictObject({}).optional(),
		response: Call,
		status: 200,
	}),
};

export const pollsCallsHandlers: ResourceHandlers<typeof pollsCallsOperations> = {
	vote: ({ core, workspaceId, params, body }) => {
		requireConnected(core, workspaceId, params.instanceId);
		const message = requireMessage(core, workspaceId, params.instanceId, params.messageId);
		const indexes = chosenIndexes(message, body.options, 'body.options');
		return castVote(core, message, voterOf(core, message, body.from), indexes);
	},
	call: ({ core, workspaceId, params, body }) => {
		const instance = requireConnected(core, workspaceId, params.instanceId);
		if (body.groupId !== undefined) requireGroup(core, workspaceId, instance.id, body.groupId);
		const call = receiveCall(core, instance, {
			from: body.from,
			media: body.media,
			groupId: body.groupId ?? null,
		});
		return presentCall(call);
	},
	hangUp: ({ core, workspaceId, params }) => {
		requireInstance(core, workspaceId, params.instanceId);
		const call = requireCall(core, workspaceId, params.instanceId, params.callId);
		hangUp(core, call);
		return presentCall(call);
	},
};

/**
 * The recipient of a poll sent to a person; in a group, whoever `from` names, if a member. Anyone else's vote is
 * refused (409 `not_a_member`) and nothing is counted or sent: the console's phone shows the refusal, and no one
 * is told in the group's chat, which a non-member cannot see.
 */
function voterOf(core: SandboxCore, message: MessageRecord, from: string | undefined): string {
	const group = isGroupChatId(message.to);
	const voter = group ? from : (message.to ?? undefined);
	if (!voter || (from !== undefined && from !== voter)) {
		const problem = group
			? 'required when the poll was sent to a group'
			: `only the recipient, ${message.to}, can vote`;
		throw new HttpError(400, 'validation_failed', `"from": ${problem}`, [
			{ field: 'body.from', message: problem },
		]);
	}
	if (group) {
		const groupId = message.to as string;
		const { participants } = requireGroup(core, message.workspaceId, message.instanceId, groupId);
		if (!participants.some((participant) => participant.phoneNumber === voter)) {
			throw conflict(
				'not_a_member',
				`${voter} is not a member of the group ${groupId}: only its members vote on its polls, and this vote is not counted`,
			);
		}
	}
	return voter;
}
