import { z } from 'zod/v4';

import { operation } from '../../../src/client/operation';
import { HandOver } from '../../../src/client/resources/hand-overs';
import { MAX_LENGTH, Recipient } from '../../../src/client/resources/message-sends';
import { Message } from '../../../src/client/resources/messages';
import { Id, pathParams, text } from '../../../src/client/schemas';
import { giveBackDueNow, handOver } from '../../channel/hand-over';
import { requireConnected } from '../../channel/instance-records';
import { sendOutgoing } from '../../channel/outgoing';
import { chatIdOf } from '../../channel/chat-ids';
import { recipientNamed } from '../../channel/people';
import { presentMessage } from '../../present';
import { newId } from '../../store/store';
import type { ResourceHandlers } from './context';
import { requireChat } from './chats';

/**
 * Sandbox only: the business's own phone (hand-over to a person, SERVICE.md "people"). The owner answers a chat
 * from the phone rather than through the API: a `message.sent` marked `fromBusinessPhone`, which hands the chat
 * over. And a chat's quiet period brought to its end, so that tests and the console see the give-back without
 * waiting 30 minutes: it still goes by the check on the sandbox's clock.
 */

const byChat = pathParams('instanceId', 'chatId');

export const businessPhoneOperations = {
	answerAsBusiness: operation({
		method: 'POST',
		path: '/sandbox/instances/{instanceId}/chats/{chatId}/answer-as-business',
		summary:
			'Sandbox only: the business answers a chat from its own phone, not through the API (message.sent with `fromBusinessPhone: true`); the chat is handed over to a person (chat.handed_over, `by: business_phone`), or its quiet period starts again',
		scope: 'messaging:write',
		// The business may write first, as from its phone: any chat a send may go to, not only one that exists.
		params: z.strictObject({ instanceId: Id, chatId: Recipient }),
		body: z.strictObject({ text: text({ min: 1, max: MAX_LENGTH.text }) }),
		response: Message,
		status: 201,
	}),
	giveBackDueNow: operation({
		method: 'POST',
		path: '/sandbox/instances/{instanceId}/chats/{chatId}/give-back-due-now',
		summary:
			"Sandbox only: a handed-over chat's quiet period ends now; the sandbox's next check (within a second) gives it back (chat.handed_back, `reason: quiet_period`). Answers its hand-over as it stands",
		scope: 'messaging:write',
		params: byChat,
		response: HandOver,
		status: 200,
	}),
};

export const businessPhoneHandlers: ResourceHandlers<typeof businessPhoneOperations> = {
	answerAsBusiness: ({ core, workspaceId, params, body }) => {
		const instance = requireConnected(core, workspaceId, params.instanceId);
		const to = recipientNamed(core, instance, params.chatId, 'chatId');
		const message = sendOutgoing(
			core,
			{ id: newId('msg'), workspaceId, instance, to, type: 'text', content: { text: body.text } },
			(sent) => {
				sent.fromBusinessPhone = true;
				handOver(core, instance, chatIdOf(to), 'business_phone');
			},
		);
		return presentMessage(message);
	},
	giveBackDueNow: ({ core, workspaceId, params }) => {
		const { chat, instance } = requireChat(core, workspaceId, params.instanceId, params.chatId);
		return giveBackDueNow(core, instance, chat.id);
	},
};
