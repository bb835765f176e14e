import { MessageList } from './message-list';
import type { MessageRecord } from './records';

/**
 * The messages by instance and by chat, kept in memory beside the store (which keeps it up to date as
 * messages are inserted, removed and put back, and rebuilds it on load), so that a list of messages or of
 * chats costs what it returns, not every message stored.
 */

/** One chat of an instance: its messages, and the received ones that were not read when last looked at. */
export interface IndexedChat {
	id: string;
	messages: MessageList;
	/** By id. */
	maybeUnread: Map<string, MessageRecord>;
}

interface IndexedInstance {
	messages: MessageList;
	chats: Map<string, IndexedChat>;
}

export class MessageIndex {
	/** The next order number: the order messages were put in, as the store's. */
	private nextOrder = 0;
	private readonly instances = new Map<string, IndexedInstance>();
	/** Where each message is indexed. */
	private readonly places = new Map<string, { instanceId: string; chatId: string }>();

	/** A message stored, or changed in place (a rollback): indexed, or its entries refreshed. */
	put(message: MessageRecord): void {
		const place = this.places.get(message.id);
		if (place && (place.instanceId !== message.instanceId || place.chatId !== message.chatId)) {
			this.delete(message.id);
		}
		const instance = this.instanceOf(message.instanceId, true);
		let chat = instance.chats.get(message.chatId);
		if (!chat) {
			chat = { id: message.chatId, messages: new MessageList(), maybeUnread: new Map() };
			instance.chats.set(message.chatId, chat);
		}
		const order = this.nextOrder++;
		instance.messages.put(message, order);
		chat.messages.put(message, order);
		this.places.set(message.id, { instanceId: message.instanceId, chatId: message.chatId });
		if (isUnread(message)) chat.maybeUnread.set(message.id, message);
		else chat.maybeUnread.delete(message.id);
	}

	delete(id: string): void {
		const place = this.places.get(id);
		if (!place) return;
		this.places.delete(id);
		const instance = this.instanceOf(place.instanceId, false);
		const chat = instance?.chats.get(place.chatId);
		if (!instance || !chat) return;
		instance.messages.delete(id);
		chat.messages.delete(id);
		chat.maybeUnread.delete(id);
		if (chat.messages.size === 0) instance.chats.delete(place.chatId);
		if (instance.messages.size === 0) this.instances.delete(place.instanceId);
	}

	/** An instance's messages, or one chat's, oldest first. */
	messagesOf(instanceId: string, chatId?: string): MessageList {
		const instance = this.instanceOf(instanceId, false);
		const list = chatId === undefined ? instance?.messages : instance?.chats.get(chatId)?.messages;
		return list ?? new MessageList();
	}

	/** An instance's chats (each with at least one message). */
	chatsOf(instanceId: string): Iterable<IndexedChat> {
		return this.instanceOf(instanceId, false)?.chats.values() ?? [];
	}

	/** A chat's received messages not read yet, oldest first. */
	unreadOf(chat: IndexedChat): MessageRecord[] {
		const unread: MessageRecord[] = [];
		for (const message of chat.maybeUnread.values()) {
			if (isUnread(message)) unread.push(message);
			// Read since: not held any longer (a rollback that makes it unread again puts it back).
			else chat.maybeUnread.delete(message.id);
		}
		return unread;
	}

	private instanceOf(instanceId: string, create: true): IndexedInstance;
	private instanceOf(instanceId: string, create: false): IndexedInstance | undefined;
	private instanceOf(instanceId: string, create: boolean): IndexedInstance | undefined {
		let instance = this.instances.get(instanceId);
		if (!instance && create) {
			instance = { messages: new MessageList(), chats: new Map() };
			this.instances.set(instanceId, instance);
		}
		return instance;
	}
}

const isUnread = (message: MessageRecord) =>
	message.direction === 'inbound' && message.status !== 'read';
