import type { IDataObject, INodeProperties, IWebhookFunctions } from 'n8n-workflow';

import type { EventEnvelope } from '../../src/client';
import { MessageReply } from '../../src/client/resources/messages';
import { z } from '../../src/client/zod';
import type { ChosenOptions } from '../shared/trigger';
import { splitList } from '../shared/values';

/**
 * Taps on reply buttons and list rows (Send Buttons, Send List) come back as `message.received` with
 * `reply: { type, id, title, toMessageId }`. The trigger shows the reply at the top level of its output and,
 * with "Only Replies", starts for nothing else.
 */

/**
 * Which received messages start the workflow, so that several workflows can share an instance: a tap reaches
 * only the workflow whose reply IDs it carries, and an answer Send and Wait took (`answeredQuestion`, marked by
 * the service before delivery) resumed its own workflow and starts no other.
 */
export const replyOptions: INodeProperties[] = [
	{
		displayName: 'Only Replies',
		name: 'onlyReplies',
		type: 'boolean',
		// Added to say yes: a user adds this option to turn it on.
		default: true,
		description:
			'Whether to start only for taps on reply buttons or list rows (received messages with "reply"); other events are acknowledged and skipped',
	},
	{
		displayName: 'Taps on Buttons and Lists',
		name: 'taps',
		type: 'options',
		default: 'matching',
		options: [
			{
				name: 'Only Taps With These Reply IDs',
				value: 'matching',
				description: 'The IDs your workflow gave its buttons or list rows',
			},
			{ name: 'Every Tap', value: 'all', description: 'Taps on any workflow’s buttons' },
			{ name: 'No Taps', value: 'none', description: 'For a workflow that sends no buttons' },
		],
		description:
			'Which taps start this workflow; without this option, every tap does. Other taps are acknowledged and skipped.',
	},
	{
		displayName: 'Reply IDs',
		name: 'replyIds',
		type: 'string',
		default: '',
		placeholder: 'appointment-*',
		displayOptions: { show: { taps: ['matching'] } },
		description:
			'Comma-separated IDs of the buttons or list rows this workflow sends; end one with * for every ID that starts with it (appointment-* matches appointment-confirm). Empty: no tap starts it.',
	},
	{
		displayName: 'Include Answers Taken by Send and Wait',
		name: 'includeAnswersTaken',
		type: 'boolean',
		default: false,
		description:
			'Whether to start also for a message that answered a Send and Wait for Response question (it resumed that workflow; the event has "answeredQuestion")',
	},
];

/** The tap a received message answers with, if it is one. */
function replyOf(event: EventEnvelope): IDataObject | undefined {
	const reply = event.data.reply;
	return event.type === 'message.received' && reply !== null && typeof reply === 'object'
		? (reply as IDataObject)
		: undefined;
}

/** What the options say about taps and answers. */
interface ReplyChoice {
	onlyReplies?: boolean;
	taps?: 'matching' | 'all' | 'none';
	replyIds?: unknown;
	includeAnswersTaken?: boolean;
}

/** Whether a reply ID is one of a comma-separated list, where `prefix*` matches every ID starting so. */
export function replyIdMatches(list: unknown, id: string): boolean {
	return splitList(list).some((entry) =>
		entry.endsWith('*') ? id.startsWith(entry.slice(0, -1)) : id === entry,
	);
}

/** A refused answer (its sender may not answer) is told apart from a taken one, so that the log line is true. */
function answerSkipReason(answered: unknown): string {
	const refused =
		typeof answered === 'object' && (answered as { refused?: unknown }).refused === true;
	return refused
		? 'an answer Send and Wait refused: its sender may not answer (answeredQuestion.refused)'
		: 'an answer taken by Send and Wait (answeredQuestion)';
}

/** The trigger's `skip`: why an event does not start this workflow, by the options above. */
export function skipUnwantedReply(
	_context: IWebhookFunctions,
	event: EventEnvelope,
	options: ChosenOptions,
): string | undefined {
	const choice = options as ReplyChoice;
	const answered = event.type === 'message.received' ? event.data.answeredQuestion : undefined;
	if (answered && choice.includeAnswersTaken !== true) {
		return answerSkipReason(answered);
	}
	const reply = replyOf(event);
	if (!reply) return choice.onlyReplies === true ? 'not a reply to buttons or a list' : undefined;
	const id = String(reply.id);
	if (choice.taps === 'none') return 'a tap (Taps on Buttons and Lists: No Taps)';
	if (choice.taps === 'matching' && !replyIdMatches(choice.replyIds, id)) {
		return `a tap on "${id}", not one of Reply IDs`;
	}
	return undefined;
}

/** The trigger's `highlights`: the reply, at the top level of the output. */
export const replyHighlights = {
	output: z.object({ reply: MessageReply.optional() }),
	of(event: EventEnvelope): IDataObject {
		const reply = replyOf(event);
		return reply ? { reply } : {};
	},
};
