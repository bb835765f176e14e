import type { SandboxCore } from '../core';
import { conflict, HttpError } from '../errors';
import type { MessageRecord } from '../store/store';

/**
 * Poll votes: each voter's latest vote is kept on the poll's message (`pollVotes`), so results and votes go
 * with the message and survive a restart. A changed vote replaces the earlier one; an empty one withdraws it.
 */

/** Bound on the voters kept per poll (a group has at most 1,024 participants). */
export const MAX_VOTERS_PER_POLL = 1024;

interface PollContent {
	question: string;
	options: string[];
	multipleAnswers?: boolean;
}

function requirePoll(message: MessageRecord): PollContent {
	if (message.type !== 'poll' || message.direction !== 'outbound') {
		throw conflict(
			'not_a_poll',
			`Message ${message.id} is not a poll this instance sent; it has no votes`,
		);
	}
	return message.content as unknown as PollContent;
}

const optionsOf = (poll: PollContent, indexes: number[]) =>
	indexes.map((index) => ({ index, name: poll.options[index] }));

/** The options a vote names, by index or by text, as indexes in the poll's order; 400 naming `field` else. */
export function chosenIndexes(
	message: MessageRecord,
	choices: Array<number | string>,
	field: string,
): number[] {
	const poll = requirePoll(message);
	const indexes = new Set<number>();
	for (const choice of choices) {
		const index = typeof choice === 'number' ? choice : poll.options.indexOf(choice);
		if (index < 0 || index >= poll.options.length) {
			const offered = poll.options.map((option) => `"${option}"`).join(', ');
			throw new HttpError(
				400,
				'option_not_offered',
				`Poll ${message.id} has no option ${JSON.stringify(choice)}; it offers ${offered}`,
				[{ field, message: `must be one of ${offered} (or their indexes from 0)` }],
			);
		}
		indexes.add(index);
	}
	if (indexes.size > 1 && !poll.multipleAnswers) {
		throw new HttpError(400, 'validation_failed', `Poll ${message.id} takes one answer only`, [
			{ field, message: 'at most one option: the poll takes one answer' },
		]);
	}
	return [...indexes].sort((a, b) => a - b);
}

/** A voter's vote on a poll (`poll.voted`): replaces their earlier vote; an empty choice withdraws it. */
export function castVote(
	core: SandboxCore,
	message: MessageRecord,
	voter: string,
	indexes: number[],
) {
	const poll = requirePoll(message);
	const votes = message.pollVotes ?? {};
	const previous = votes[voter];
	if (!previous && Object.keys(votes).length >= MAX_VOTERS_PER_POLL) {
		throw conflict('too_many_voters', `Poll ${message.id} has ${MAX_VOTERS_PER_POLL} voters`);
	}
	const votedAt = core.now().toISOString();
	// Their vote goes last, so that the results' order (by votedAt) keeps the order of votes within one millisecond.
	const others = Object.fromEntries(Object.entries(votes).filter(([someone]) => someone !== voter));
	message.pollVotes = { ...others, [voter]: { optionIndexes: indexes, votedAt } };
	message.updatedAt = votedAt;
	const vote = {
		instanceId: message.instanceId,
		messageId: message.id,
		chatId: message.chatId,
		voter,
		options: optionsOf(poll, indexes),
		withdrawn: indexes.length === 0,
		replacesVote: previous !== undefined,
		previousOptions: optionsOf(poll, previous?.optionIndexes ?? []),
		votedAt,
	};
	core.emit(message.workspaceId, 'poll.voted', vote, { instanceId: message.instanceId });
	return vote;
}

/** The tally per option, each voter counted with their latest vote, earliest voter first. */
export function pollResults(message: MessageRecord) {
	const poll = requirePoll(message);
	const votes = Object.entries(message.pollVotes ?? {}).sort(([, a], [, b]) =>
		a.votedAt.localeCompare(b.votedAt),
	);
	const counted = votes.filter(([, vote]) => vote.optionIndexes.length > 0);
	return {
		instanceId: message.instanceId,
		messageId: message.id,
		chatId: message.chatId,
		question: poll.question,
		multipleAnswers: poll.multipleAnswers ?? false,
		options: poll.options.map((name, index) => {
			const voters = counted
				.filter(([, vote]) => vote.optionIndexes.includes(index))
				.map(([voter, vote]) => ({ voter, votedAt: vote.votedAt }));
			return { index, name, votes: voters.length, voters };
		}),
		totalVoters: counted.length,
		updatedAt: votes.length > 0 ? votes[votes.length - 1][1].votedAt : null,
	};
}
