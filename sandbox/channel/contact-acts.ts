import type { SandboxCore } from '../core';
import { conflict, validationFailed } from '../errors';
import { newId, type InstanceRecord, type MessageRecord } from '../store/store';
import { presentMessage } from '../present';
import { isGroupChatId } from '../../src/client/chat-ids';
import { chatIdOf } from './chat-ids';
import { requireConnected, requireGroup } from './instance-records';
import { findPerson, requirePerson, type Person } from './people';

/**
 * What a contact does besides writing (SERVICE.md, "people"): reacting to a message and taking the reaction off
 * (`message.reaction`), editing and deleting their own message (`message.edited` and `message.deleted`, `by:
 * contact`) and their presence (`presence.updated`). Each act emits its event once; one that changes nothing (a
 * second delete, a reaction taken off that was not on) is refused instead.
 */

/** A 400 naming the one field that is wrong. */
const refused = (field: string, message: string) => validationFailed([{ field, message }]);

/** How an event names a person: `from` (their number, or their contact id when hidden), `phone`, `username`. */
function named(person: Person) {
	return {
		from: person.from,
		...(person.phone ? { phone: person.phone } : {}),
		...(person.username ? { username: person.username } : {}),
	};
}

/**
 * Who acts on a message of a chat: in a 1:1 chat its contact (whoever `from` names must be them); in a group,
 * `from`, a member.
 */
function actorOn(core: SandboxCore, message: MessageRecord, from: string | undefined): Person {
	const instance = requireConnected(core, message.workspaceId, message.instanceId);
	const given = from === undefined ? undefined : requirePerson(core, instance, from, 'body.from');
	if (isGroupChatId(message.chatId)) {
		if (!given) throw refused('body.from', 'required in a group chat: a member');
		const group = requireGroup(core, message.workspaceId, message.instanceId, message.chatId);
		if (!group.participants.some((participant) => participant.phoneNumber === given.phone)) {
			throw conflict('not_a_member', `${from} is not a member of the group ${message.chatId}`);
		}
		return given;
	}
	const contact = findPerson(core, instance, message.chatId) as Person;
	if (given && given.from !== contact.from) {
		throw refused('body.from', `only the contact of this chat, ${contact.from}, can`);
	}
	return contact;
}

function notDeleted(message: MessageRecord): void {
	if (message.deletedAt) {
		throw conflict(
			'message_deleted',
			`Message ${message.id} was deleted at ${message.deletedAt}; there is nothing to change`,
		);
	}
}

/** The emoji `from` has on a message now (their latest reaction to it, newest first), or undefined. */
function reactionOf(core: SandboxCore, message: MessageRecord, from: string): string | undefined {
	for (const { message: earlier } of core.store.messageIndex
		.messagesOf(message.instanceId, message.chatId)
		.walk(true)) {
		const content = earlier.content as { messageId?: string; emoji?: string };
		if (earlier.type === 'reaction' && earlier.from === from && content.messageId === message.id)
			return content.emoji || undefined;
	}
	return undefined;
}

/** The contact puts an emoji on a message (an empty one takes theirs off): a reaction of the chat. */
export function reactAsContact(
	core: SandboxCore,
	message: MessageRecord,
	input: { emoji: string; from?: string },
) {
	notDeleted(message);
	if (message.type === 'reaction') {
		throw conflict(
			'not_reactable',
			`Message ${message.id} is a reaction; react to the message it is on`,
		);
	}
	const person = actorOn(core, message, input.from);
	const from = person.from;
	const current = reactionOf(core, message, from);
	if (input.emoji === '' && current === undefined) {
		throw conflict('no_reaction', `${from} has no reaction on message ${message.id} to take off`);
	}
	const now = core.now().toISOString();
	core.store.insert('messages', {
		id: newId('msg'),
		workspaceId: message.workspaceId,
		instanceId: message.instanceId,
		chatId: message.chatId,
		direction: 'inbound',
		from,
		to: null,
		type: 'reaction',
		status: 'delivered',
		content: { messageId: message.id, emoji: input.emoji },
		error: null,
		createdAt: now,
		updatedAt: now,
	});
	const reaction = {
		instanceId: message.instanceId,
		chatId: message.chatId,
		messageId: message.id,
		emoji: input.emoji === '' ? (current as string) : input.emoji,
		action: input.emoji === '' ? 'removed' : 'added',
		...named(person),
		messageDirection: message.direction,
		reactedAt: now,
	};
	core.emit(message.workspaceId, 'message.reaction', reaction);
	return reaction;
}

/** A message the contact sent, which only they may change. */
function ownMessage(core: SandboxCore, message: MessageRecord, from: string | undefined): string {
	requireConnected(core, message.workspaceId, message.instanceId);
	if (message.direction !== 'inbound' || message.type === 'reaction') {
		throw conflict(
			'not_inbound',
			`Message ${message.id} was not written by the contact; a contact changes only their own messages`,
		);
	}
	notDeleted(message);
	const sender = message.from ?? '';
	if (from !== undefined && from !== sender) {
		throw refused('body.from', `only its sender, ${sender}, can`);
	}
	return sender;
}

/** The contact edits the text of their own text message (`message.edited`, `by: contact`). */
export function editAsContact(
	core: SandboxCore,
	message: MessageRecord,
	input: { text: string; from?: string },
) {
	ownMessage(core, message, input.from);
	if (message.type !== 'text') {
		throw conflict(
			'not_editable',
			`Message ${message.id} is a ${message.type} message; only text messages can be edited`,
		);
	}
	const previousText = (message.content as { text?: string }).text ?? null;
	const now = core.now().toISOString();
	message.content = { ...message.content, text: input.text };
	message.editedAt = now;
	message.updatedAt = now;
	const edited = { ...presentMessage(message), by: 'contact' as const, previousText };
	// A burst still gathering it (SERVICE.md, gathered messages) goes out with the text the contact meant.
	core.deliveries.gathering.revise(message, { content: message.content, editedAt: now });
	core.emit(message.workspaceId, 'message.edited', edited);
	return edited;
}

/**
 * The contact deletes their own message for everyone (`message.deleted`, `by: contact`): the event carries the
 * message as it was; the record stays, its content gone, as the chat shows "This message was deleted".
 */
export function deleteAsContact(
	core: SandboxCore,
	message: MessageRecord,
	input: { from?: string },
) {
	ownMessage(core, message, input.from);
	const now = core.now().toISOString();
	const deleted = { ...presentMessage(message), by: 'contact' as const, deletedAt: now };
	message.content = {};
	delete message.media;
	message.deletedAt = now;
	message.updatedAt = now;
	// A burst still gathering it goes out without it: a workflow must not answer what the contact took back.
	core.deliveries.gathering.withdraw(message);
	core.emit(message.workspaceId, 'message.deleted', deleted);
	return deleted;
}

/**
 * The contact's presence: typing or recording in a chat (theirs, or a group's), or online or offline. Typing and
 * recording come again every few seconds while they last, each an event; an `online` or `offline` the same as the
 * contact's last one changes nothing, and is answered without an event.
 */
export function updatePresence(
	core: SandboxCore,
	instance: InstanceRecord,
	input: { from: string; state: 'typing' | 'recording' | 'online' | 'offline'; groupId?: string },
) {
	requireConnected(core, instance.workspaceId, instance.id);
	const person = requirePerson(core, instance, input.from, 'body.from') as Person;
	const inChat = input.state === 'typing' || input.state === 'recording';
	if (input.groupId !== undefined && !inChat) {
		throw refused(
			'body.groupId',
			'only with typing or recording: online and offline are the contact’s own',
		);
	}
	if (input.groupId !== undefined)
		requireGroup(core, instance.workspaceId, instance.id, input.groupId);
	const presence = {
		instanceId: instance.id,
		...named(person),
		state: input.state,
		chatId: inChat ? chatIdOf(input.groupId ?? person.recipient) : null,
		at: core.now().toISOString(),
	};
	if (input.state === 'online' || input.state === 'offline') {
		if (instance.presence?.[person.from] === input.state) return presence;
		instance.presence = { ...instance.presence, [person.from]: input.state };
	}
	core.emit(instance.workspaceId, 'presence.updated', presence);
	return presence;
}
