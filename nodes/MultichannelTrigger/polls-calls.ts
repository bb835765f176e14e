import type { INodeProperties, IWebhookFunctions } from 'n8n-workflow';

import type { EventEnvelope } from '../../src/client';
import type { ChosenOptions } from '../shared/trigger';
import { splitList } from '../shared/values';

/**
 * Filters of poll votes and calls (each shown where it can apply: with its events chosen, or all events): the votes of chosen polls only (a workflow that follows up one survey), and
 * calls of one kind (voice or video; people or groups). Other events pass.
 */
export const pollCallOptions: INodeProperties[] = [
	{
		displayName: 'Poll Message IDs',
		name: 'pollMessageIds',
		type: 'string',
		default: '',
		displayOptions: { show: { '/events': ['poll.voted', '*'] } },
		placeholder: 'e.g. msg_3c9e1f7a2b4d6e80',
		description:
			'Comma-separated IDs of polls (the messages Send Poll returned): only votes on these start the workflow. Empty: votes on every poll.',
	},
	{
		displayName: 'Call Types',
		name: 'callTypes',
		type: 'multiOptions',
		default: [],
		displayOptions: { show: { '/events': ['call.received', 'call.missed', 'call.rejected', '*'] } },
		options: [
			{ name: 'Voice', value: 'voice' },
			{ name: 'Video', value: 'video' },
			{ name: 'Person Call', value: 'person' },
			{ name: 'Group Call', value: 'group' },
		],
		description:
			'Only calls of these kinds start the workflow (voice or video, and a person or a group call; none chosen of either pair: both)',
	},
];

interface PollCallChoice {
	pollMessageIds?: unknown;
	callTypes?: string[];
}

/** The trigger's `skip` for these filters: why a vote or a call does not start this workflow. */
export function skipPollOrCall(
	_context: IWebhookFunctions,
	event: EventEnvelope,
	options: ChosenOptions,
): string | undefined {
	const choice = options as PollCallChoice;
	if (event.type === 'poll.voted') {
		const polls = splitList(choice.pollMessageIds);
		const poll = String(event.data.messageId);
		return polls.length > 0 && !polls.includes(poll)
			? `a vote on poll ${poll}, not one of Poll Message IDs`
			: undefined;
	}
	if (!event.type.startsWith('call.')) return undefined;
	const kinds = choice.callTypes ?? [];
	const media = String(event.data.media);
	const place = event.data.isGroup === true ? 'group' : 'person';
	const chosen = (pair: string[]) => kinds.filter((kind) => pair.includes(kind));
	const medias = chosen(['voice', 'video']);
	const places = chosen(['person', 'group']);
	if (medias.length > 0 && !medias.includes(media)) return `a ${media} call (Call Types)`;
	if (places.length > 0 && !places.includes(place)) return `a ${place} call (Call Types)`;
	return undefined;
}
