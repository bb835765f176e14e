import { z } from '../zod';

import { operation } from '../operation';
import { Id, ListQuery, named, page, pathParams, Timestamp, text } from '../schemas';
import { HAND_OVER_RULE, HandOver } from './hand-overs';
import { ChatLabels, Label } from './labels';
import { Message } from './messages';

/**
 * Chats: the conversations of an instance, one per person or group it has exchanged messages with. A chat's
 * messages are the message list filtered by `chatId` (messages.ts).
 */

export const Chat = named(
	'Chat',
	z.looseObject({
		id: z
			.string()
			.describe(
				"The chat id, as messages carry it in `chatId`: a group's ends in @g.us, a person's in @s.whatsapp.net, or in @lid when they hide their number",
			),
		instanceId: Id.optional(),
		name: z
			.string()
			.nullable()
			.optional()
			.describe("The contact's name, or the group's subject; null when the instance knows none"),
		phoneNumber: z
			.string()
			.nullable()
			.optional()
			.describe(
				"The person's number in E.164 form; null for a group and for a person who hides it",
			),
		username: z
			.string()
			.optional()
			.describe("The person's username (without `@`), when they have one"),
		isGroup: z.boolean().optional(),
		unreadCount: z
			.number()
			.int()
			.min(0)
			.optional()
			.describe('Received messages not yet marked read'),
		lastMessage: Message.nullable().optional().describe('The newest message, sent or received'),
		lastMessageAt: Timestamp.nullable().optional(),
		labels: z.array(Label).optional().describe("The workspace's labels the chat has"),
		handOver: HandOver.optional().describe(
			'Whether a person handles the chat (hand-over), since when and until when',
		),
	}),
);
export type Chat = z.output<typeof Chat>;

export const ChatRead = named(
	'ChatRead',
	Chat.extend({
		markedRead: z
			.number()
			.int()
			.min(0)
			.describe('How many received messages this request marked read'),
	}),
);

export const ChatListQuery = ListQuery.extend({
	search: text({ max: 200 })
		.optional()
		.describe(
			'Part of the name, the `@username`, the number or the chat id; a number matches by its digits (+1 415-555 finds 1415555…)',
		),
	labelId: Id.optional().describe('Only the chats that have this label (`lbl_…`)'),
});

const byId = pathParams('instanceId', 'chatId');
/** The contract's "Numbers" (2026-11-25): a person's number names their chat wherever a chat is taken. */
const CHAT_BY_NUMBER =
	'`chatId` is the chat id or, for a person, their number in E.164 (`+14155550301` names the chat `14155550301@s.whatsapp.net`), their contact id (`ct_…`) or their `@username` (a person who hides their number has a chat id `<digits>@lid`). A contact id or username the instance does not know is 404 `contact_not_found`.';
const item = '/instances/{instanceId}/chats/{chatId}';

export const chatOperations = {
	list: operation({
		method: 'GET',
		path: '/instances/{instanceId}/chats',
		summary: 'List the chats of an instance, the most recently active first',
		description:
			"A chat is there once a message was sent or received in it. `search` keeps the chats whose name (the contact's name or the group's subject) or id contains it, ignoring case; a search typed as a phone number (digits, +, spaces, dashes, brackets) also matches the digits of the chat's number.",
		scope: 'messaging:read',
		params: pathParams('instanceId'),
		query: ChatListQuery,
		response: page(Chat),
		status: 200,
		paginated: true,
	}),
	get: operation({
		method: 'GET',
		path: item,
		summary: 'Get a chat: its name, last message and unread count',
		description: CHAT_BY_NUMBER,
		scope: 'messaging:read',
		params: byId,
		response: Chat,
		status: 200,
	}),
	markRead: operation({
		method: 'POST',
		path: `${item}/read`,
		summary: 'Mark every received message of a chat as read',
		description: `Does what marking each received message read does (\`POST …/messages/{messageId}/read\`), for all of them at once; a chat with nothing unread is no error (\`markedRead: 0\`). ${CHAT_BY_NUMBER}`,
		scope: 'messaging:write',
		params: byId,
		response: ChatRead,
		status: 200,
	}),
	addLabel: operation({
		method: 'POST',
		path: `${item}/labels/{labelId}`,
		summary: 'Put a label on a chat',
		description: `A label the chat has already is no error and no event; otherwise \`chat.labels_changed\` is emitted. ${CHAT_BY_NUMBER}`,
		scope: 'messaging:write',
		params: pathParams('instanceId', 'chatId', 'labelId'),
		response: ChatLabels,
		status: 200,
	}),
	removeLabel: operation({
		method: 'DELETE',
		path: `${item}/labels/{labelId}`,
		summary: 'Take a label off a chat',
		description: `A label the chat does not have is no error and no event; otherwise \`chat.labels_changed\` is emitted. ${CHAT_BY_NUMBER}`,
		scope: 'messaging:write',
		params: pathParams('instanceId', 'chatId', 'labelId'),
		response: ChatLabels,
		status: 200,
	}),
	handOver: operation({
		method: 'POST',
		path: `${item}/hand-over`,
		summary:
			'Hand a chat over to a person: its message events say `handedOver: true` until it is given back',
		description: `Emits \`chat.handed_over\` (\`by: api\`). The chat is given back by Give Back or by itself, after the instance's quiet period (\`settings.handOverQuietMinutes\`) counted from the hand-over or the last message from the business's own phone. ${HAND_OVER_RULE} ${CHAT_BY_NUMBER}`,
		scope: 'messaging:write',
		params: byId,
		response: HandOver,
		status: 200,
	}),
	giveBack: operation({
		method: 'POST',
		path: `${item}/give-back`,
		summary: 'Give a chat back from the person handling it',
		description: `Emits \`chat.handed_back\` (\`reason: api\`). ${HAND_OVER_RULE} ${CHAT_BY_NUMBER}`,
		scope: 'messaging:write',
		params: byId,
		response: HandOver,
		status: 200,
	}),
};
