import type { api } from '../../../src/client/api';
import { changeChatLabel, chatLabels, labelIdsOf } from '../../channel/chat-labels';
import type { SandboxCore } from '../../core';
import { notFound } from '../../errors';
import { setMessageStatus } from '../../channel/progress';
import type { InstanceRecord, MessageRecord } from '../../store/store';
import { chatIdNamed, isHiddenNumberChatId, personOf } from '../../channel/people';
import { chatIdOf } from '../../channel/chat-ids';
import { paginate, type ResourceHandlers } from './context';
import { requireConnected, requireInstance } from '../../channel/instance-records';
import { requireLabel } from './labels';
import { presentMessage } from '../../present';
import { isGroupChatId } from '../../../src/client/chat-ids';
import { giveBack, handOver, handOverOf } from '../../channel/hand-over';

/**
 * Chats are not stored: they are the instance's messages grouped by `chatId`, each named by the group's
 * subject or the contact's name, with its newest message and how many received messages are not read yet.
 */

interface ChatRecord {
	id: string;
	instanceId: string;
	isGroup: boolean;
	phoneNumber: string | null;
	/** The person's username (a contact's), when they have one. */
	username: string | null;
	lastMessage: MessageRecord;
	unread: MessageRecord[];
	/** Where its newest message stands among the messages (the index's order), for "most recently active first". */
	position: number;
}

/** The chats of an instance, the most recently active first (from the message index: no message is scanned). */
function chatsOf(core: SandboxCore, instance: InstanceRecord): ChatRecord[] {
	const index = core.store.messageIndex;
	const usernames = new Map<string, string>();
	for (const contact of core.store.values('contacts')) {
		if (contact.instanceId === instance.id && contact.username)
			usernames.set(chatIdOf(personOf(contact).recipient), contact.username);
	}
	const chats: ChatRecord[] = [];
	for (const chat of index.chatsOf(instance.id)) {
		const newest = chat.messages.newest();
		if (!newest) continue;
		const isGroup = isGroupChatId(chat.id);
		const { message: lastMessage } = newest;
		// The other side, as the chat's first message names it.
		const first = chat.messages.walk(false).next().value?.message ?? lastMessage;
		const other = first.direction === 'inbound' ? first.from : first.to;
		chats.push({
			id: chat.id,
			instanceId: instance.id,
			isGroup,
			phoneNumber: isGroup || isHiddenNumberChatId(chat.id) ? null : (other ?? null),
			username: usernames.get(chat.id) ?? null,
			lastMessage,
			unread: index.unreadOf(chat),
			position: newest.order,
		});
	}
	return chats.sort((a, b) => b.position - a.position);
}

/** The name of each chat: a group's subject, or the name of the instance's contact with that number. */
function namesOf(core: SandboxCore, instance: InstanceRecord): Map<string, string> {
	const names = new Map<string, string>();
	for (const contact of core.store.values('contacts')) {
		if (contact.instanceId === instance.id && contact.name)
			names.set(chatIdOf(personOf(contact).recipient), contact.name);
	}
	for (const group of core.store.values('groups')) {
		if (group.instanceId === instance.id) names.set(group.id, group.subject);
	}
	return names;
}

function nameOf(chat: ChatRecord, names: Map<string, string>): string | null {
	return names.get(chat.id) ?? null;
}

const presentChat = (
	core: SandboxCore,
	workspaceId: string,
	chat: ChatRecord,
	name: string | null,
) => ({
	id: chat.id,
	instanceId: chat.instanceId,
	name,
	phoneNumber: chat.phoneNumber,
	...(chat.username ? { username: chat.username } : {}),
	isGroup: chat.isGroup,
	unreadCount: chat.unread.length,
	lastMessage: presentMessage(chat.lastMessage),
	lastMessageAt: chat.lastMessage.createdAt,
	labels: chatLabels(core, workspaceId, chat.instanceId, chat.id),
	handOver: handOverOf(core, chat.instanceId, chat.id),
});

/**
 * Whether a chat matches what was searched: in its name or id, ignoring case; and when the search is a phone
 * number as people type one (+, spaces, dashes, brackets), by its digits in the chat's number or id.
 */
function matches(chat: ChatRecord, name: string | null, search: string): boolean {
	const needle = search.trim().toLowerCase();
	if (needle === '') return true;
	const names = [name, chat.id, chat.username && `@${chat.username}`];
	if (names.some((named) => named?.toLowerCase().includes(needle))) return true;
	const digits = needle.replace(/\D/g, '');
	return (
		/^[+\d\s().-]+$/.test(needle) &&
		digits !== '' &&
		`${chat.phoneNumber ?? ''} ${chat.id}`.replace(/[^\d ]/g, '').includes(digits)
	);
}

export function requireChat(
	core: SandboxCore,
	workspaceId: string,
	instanceId: string,
	chatId: string,
) {
	const instance = requireInstance(core, workspaceId, instanceId);
	const id = chatIdNamed(core, instance, chatId, 'chatId');
	const chat = chatsOf(core, instance).find((candidate) => candidate.id === id);
	if (!chat) throw notFound('Chat', chatId);
	return { chat, instance, name: nameOf(chat, namesOf(core, instance)) };
}

export const chatHandlers: ResourceHandlers<typeof api.workspace.chats> = {
	list: ({ core, workspaceId, params, query }) => {
		const instance = requireInstance(core, workspaceId, params.instanceId);
		const names = namesOf(core, instance);
		const chats = chatsOf(core, instance)
			.map((chat) => ({ id: chat.id, chat, name: nameOf(chat, names) }))
			.filter(({ chat, name }) => matches(chat, name, query.search ?? ''))
			.filter(
				({ chat }) =>
					query.labelId === undefined ||
					labelIdsOf(core, instance.id, chat.id).includes(query.labelId),
			);
		return paginate(chats, query, ({ chat, name }) => presentChat(core, workspaceId, chat, name));
	},

	get: ({ core, workspaceId, params }) => {
		const { chat, name } = requireChat(core, workspaceId, params.instanceId, params.chatId);
		return presentChat(core, workspaceId, chat, name);
	},

	markRead: ({ core, workspaceId, params }) => {
		const { chat, name } = requireChat(core, workspaceId, params.instanceId, params.chatId);
		requireConnected(core, workspaceId, params.instanceId);
		// As marking one received message read does: its status becomes `read`, and no event is emitted.
		for (const message of chat.unread) setMessageStatus(core, message, 'read');
		const markedRead = chat.unread.length;
		chat.unread = [];
		return { ...presentChat(core, workspaceId, chat, name), markedRead };
	},

	addLabel: ({ core, workspaceId, params }) => {
		const label = requireLabel(core, workspaceId, params.labelId);
		const { chat } = requireChat(core, workspaceId, params.instanceId, params.chatId);
		return changeChatLabel(core, label, chat.instanceId, chat.id, 'added');
	},

	removeLabel: ({ core, workspaceId, params }) => {
		const label = requireLabel(core, workspaceId, params.labelId);
		const { chat } = requireChat(core, workspaceId, params.instanceId, params.chatId);
		return changeChatLabel(core, label, chat.instanceId, chat.id, 'removed');
	},

	handOver: ({ core, workspaceId, params }) => {
		const { chat, instance } = requireChat(core, workspaceId, params.instanceId, params.chatId);
		return handOver(core, instance, chat.id, 'api');
	},

	giveBack: ({ core, workspaceId, params }) => {
		const { chat, instance } = requireChat(core, workspaceId, params.instanceId, params.chatId);
		return giveBack(core, instance, chat.id, 'api');
	},
};
