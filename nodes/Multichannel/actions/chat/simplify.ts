import { Chat } from '../../../../src/client/resources/chats';
import { z } from '../../../../src/client/zod';
import { compact } from '../../../shared/values';
import { SimpleMessage, simplifyMessage } from '../message/simplify';

/** The essentials of a chat: who it is with, what is unread, and its last message as a history entry. */
export const SimpleChat = z.object({
	id: z.string(),
	instanceId: z.string().optional(),
	name: z.string().optional(),
	phoneNumber: z.string().optional(),
	isGroup: z.boolean().optional(),
	unreadCount: z.number().int().optional(),
	lastMessageAt: z.string().optional(),
	lastMessage: SimpleMessage.optional(),
	labels: z.array(z.object({ id: z.string(), name: z.string(), color: z.string() })).optional(),
});

export function simplifyChat(chat: Chat): z.output<typeof SimpleChat> {
	return compact({
		id: chat.id,
		instanceId: chat.instanceId,
		name: chat.name ?? undefined,
		phoneNumber: chat.phoneNumber ?? undefined,
		isGroup: chat.isGroup,
		unreadCount: chat.unreadCount,
		lastMessageAt: chat.lastMessageAt ?? undefined,
		lastMessage: chat.lastMessage ? simplifyMessage(chat.lastMessage) : undefined,
		labels: chat.labels?.map(({ id, name, color }) => ({ id, name, color })),
	});
}
