import { z } from '../zod';

import { operation } from '../operation';
import { Id, named, pathParams, Timestamp } from '../schemas';

/** An option of a poll as a vote names it: its position (from 0) and its text. */
export const PollOption = named(
	'PollOption',
	z.looseObject({
		index: z.number().int().min(0).describe('Its position in the poll, from 0'),
		name: z.string().describe('Its text, as the voter saw it'),
	}),
);

/** `poll.voted`: a person's vote on a poll the instance sent; a changed vote replaces the earlier one. */
export const PollVote = named(
	'PollVote',
	z.looseObject({
		instanceId: Id,
		messageId: Id.describe('The poll: the message the instance sent'),
		chatId: z.string().describe('The chat of the poll (a person, or a group)'),
		voter: z.string().describe("The voter's number (E.164)"),
		options: z
			.array(PollOption)
			.describe("The options chosen now, in the poll's order; empty: the vote was withdrawn"),
		withdrawn: z.boolean().describe('True when the voter took the vote back (no option chosen)'),
		replacesVote: z
			.boolean()
			.describe('True when this vote replaces an earlier vote of the same voter on this poll'),
		previousOptions: z
			.array(PollOption)
			.describe('The options of the vote it replaces (empty when there was none)'),
		votedAt: Timestamp,
	}),
);
export type PollVote = z.output<typeof PollVote>;

export const PollResults = named(
	'PollResults',
	z.looseObject({
		instanceId: Id,
		messageId: Id,
		chatId: z.string().optional(),
		question: z.string(),
		multipleAnswers: z.boolean().optional(),
		options: z.array(
			z.looseObject({
				index: z.number().int().min(0),
				name: z.string(),
				votes: z.number().int().min(0).describe('How many voters chose it'),
				voters: z
					.array(z.looseObject({ voter: z.string(), votedAt: Timestamp }))
					.describe('Who chose it, earliest vote first'),
			}),
		),
		totalVoters: z.number().int().min(0).describe('How many people have a vote on the poll now'),
		updatedAt: Timestamp.nullable().describe('When the last vote came in (null: none yet)'),
	}),
);
export type PollResults = z.output<typeof PollResults>;

export const pollOperations = {
	getResults: operation({
		method: 'GET',
		path: '/instances/{instanceId}/messages/{messageId}/poll-results',
		summary:
			'Get the current results of a poll the instance sent: the tally per option, with its voters',
		description:
			'Each voter counts with their latest vote only (a changed vote replaces the earlier one; a withdrawn vote counts nowhere). A message that is not a poll the instance sent is a 409 `not_a_poll`.',
		scope: 'messaging:read',
		params: pathParams('instanceId', 'messageId'),
		response: PollResults,
		status: 200,
		alsoAnswers: [409],
	}),
};
