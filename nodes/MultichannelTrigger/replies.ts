import type { IDataObject, INodeProperties, IWebhookFunctions } from 'n8n-workflow';

import type { EventEnvelope } from '../../src/client';
import { MessageReply } from '../../src/client/resources/messages';
import { z } from '../../src/client/zod';

/**
 * Taps on reply buttons and list rows (Send Buttons, Send List) come back as `message.received` with
 * `reply: { type, id, title, toMessageId }`. The trigger shows the reply at the top level of its output and,
 * with "Only Replies", starts for nothing else.
 */

export const onlyRepliesOption: INodeProperties = {
	displayName: 'Only Replies',
	name: 'onlyReplies',
	type: 'boolean',
	default: false,
	description:
		'Whether to start only for taps on reply buttons or list rows (received messages with "reply"); other events are acknowledged and skipped',
};

/** The tap a received message answers with, if it is one. */
function replyOf(event: EventEnvelope): IDataObject | undefined {
	const reply = event.data.reply;
	return event.type === 'message.received' && reply !== null && typeof reply === 'object'
		? (reply as IDataObject)
		: undefined;
}

/** The trigger's `skip`: with "Only Replies", every event that is not a tap. */
export function skipUnlessReply(
	context: IWebhookFunctions,
	event: EventEnvelope,
): string | undefined {
	const wanted = context.getNodeParameter('options.onlyReplies', false) === true;
	return wanted && !replyOf(event) ? 'not a reply to buttons or a list' : undefined;
}

/** The trigger's `highlights`: the reply, at the top level of the output. */
export const replyHighlights = {
	output: z.object({ reply: MessageReply.optional() }),
	of(event: EventEnvelope): IDataObject {
		const reply = replyOf(event);
		return reply ? { reply } : {};
	},
};
