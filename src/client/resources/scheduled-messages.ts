import { z } from '../zod';

import { operation } from '../operation';
import { ListQuery, page, pathParams } from '../schemas';
import { Message, MessageListQuery } from './messages';

/**
 * Scheduled sends: messages sent with `sendAt`, kept by the service until their time. Sending one is any send
 * with `sendAt` (messages.ts); here they are listed and cancelled.
 */

export const ScheduledMessageListQuery = ListQuery.extend({
	chatId: MessageListQuery.shape.chatId,
	status: z
		.enum(['scheduled', 'sent', 'cancelled'])
		.optional()
		.describe(
			'Only those still to go (`scheduled`), those that went (`sent`) or those cancelled; all when absent',
		),
});

export const scheduledMessageOperations = {
	list: operation({
		method: 'GET',
		path: '/instances/{instanceId}/scheduled-messages',
		summary: 'List the scheduled sends of an instance, the next to go first',
		description:
			'Each is the message as it will be sent (status `scheduled`), as it went (`sent`, with `sentAt`, and `late: true` when its time passed while the service was down) or as it was cancelled (`cancelled`, with `cancelledAt`). Those to go come first, the next to go first, then the others, latest first. The service keeps those that went or were cancelled for a while (the latest 200 per workspace).',
		scope: 'messaging:read',
		params: pathParams('instanceId'),
		query: ScheduledMessageListQuery,
		response: page(Message),
		status: 200,
		paginated: true,
	}),
	cancel: operation({
		method: 'POST',
		path: '/instances/{instanceId}/scheduled-messages/{messageId}/cancel',
		summary: 'Cancel a scheduled send before it goes',
		description:
			'Answers the message in status `cancelled`. One that already went is 409 `already_sent`, one already cancelled 409 `already_cancelled`; a message that was not scheduled is 404.',
		scope: 'messaging:write',
		params: pathParams('instanceId', 'messageId'),
		response: Message,
		status: 200,
	}),
};
