import { z } from '../zod';

import { named, Timestamp } from '../schemas';
import { Message } from './messages';

/**
 * Gathered messages: a messaging webhook registered with `gather` receives the messages a person sends in one
 * chat within the quiet period as one `message.received` event, once the chat has been quiet that long or the
 * cap on the wait is reached. Taps on reply buttons or lists, answers taken by Send and Wait, statuses and the
 * account's own sends are never gathered: they are delivered alone, at once, as to any webhook.
 */

export const GATHER_QUIET_SECONDS = { min: 1, max: 60 };
export const GATHER_MAX_WAIT_SECONDS = { min: 1, max: 300, default: 60 };
/** A burst that reaches this many messages is delivered at once. */
export const GATHER_MAX_MESSAGES = 50;

export const GatherOptions = named(
	'GatherOptions',
	z.strictObject({
		quietSeconds: z
			.number()
			.int()
			.min(GATHER_QUIET_SECONDS.min)
			.max(GATHER_QUIET_SECONDS.max)
			.describe('A chat is delivered once no message has come from it for this long'),
		maxWaitSeconds: z
			.number()
			.int()
			.min(GATHER_MAX_WAIT_SECONDS.min)
			.max(GATHER_MAX_WAIT_SECONDS.max)
			.optional()
			.describe(
				`The longest a burst waits from its first message, quiet or not; ${GATHER_MAX_WAIT_SECONDS.default} when omitted. A burst of ${GATHER_MAX_MESSAGES} messages is delivered at once.`,
			),
	}),
);
export type GatherOptions = z.output<typeof GatherOptions>;

/** The `data` of a gathered `message.received` event. */
export const GatheredMessages = named(
	'GatheredMessages',
	z.looseObject({
		gathered: z.literal(true).describe('Present only on a gathered event'),
		instanceId: z.string(),
		chatId: z.string(),
		from: z.string().nullable().optional().describe('Who sent the messages'),
		count: z.number().int().describe('How many messages: the length of `messages`'),
		messageIds: z.array(z.string()).describe('Their ids, in the order they were received'),
		messages: z
			.array(Message)
			.describe(
				'Each message as a `message.received` event would carry it alone, in the order received (a file with its own signed `downloadUrl`)',
			),
		firstAt: Timestamp.describe('When the first message was received'),
		lastAt: Timestamp.describe('When the last message was received'),
		handedOver: z
			.literal(true)
			.optional()
			.describe('Its chat was handed over to a person before the burst closed'),
	}),
);
export type GatheredMessages = z.output<typeof GatheredMessages>;

/** Whether an event's data is a gathered burst. */
export function isGathered(data: unknown): data is GatheredMessages {
	return (
		data !== null &&
		typeof data === 'object' &&
		(data as { gathered?: unknown }).gathered === true &&
		Array.isArray((data as { messages?: unknown }).messages)
	);
}
