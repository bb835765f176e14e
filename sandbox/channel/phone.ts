import { takeAnswers } from './answers';
import type { SandboxCore } from '../core';
import { conflict, HttpError } from '../errors';
import type { MediaFile } from '../files/media';
import { newId, type InstanceRecord, type MessageRecord } from '../store/store';
import { chatIdOf } from './chat-ids';
import { contactOfUsername, findPerson, findPersonByNumber, personOf, type Person } from './people';
import { requireConnected, requireGroup } from './instance-records';
import { receivedFile } from './message-files';
import { checkedMentions, mentionsInstance } from './mentions';
import { presentMessage } from '../present';

/**
 * The simulated phones on the other side of the channel: a contact's message, file or tap arrives as a received
 * message (what a recipient does with a message sent to it is in progress.ts).
 */

/** The buttons or list rows an interactive message offers, as a tap names them. */
export function offeredChoices(
	message: MessageRecord,
): Array<{ type: 'button' | 'list'; id: string; title: string }> {
	const content = message.content as {
		buttons?: Array<{ id: string; title: string }>;
		sections?: Array<{ rows: Array<{ id: string; title: string }> }>;
	};
	if (message.type === 'buttons') {
		return (content.buttons ?? []).map(({ id, title }) => ({ type: 'button', id, title }));
	}
	if (message.type === 'list') {
		return (content.sections ?? []).flatMap((section) =>
			section.rows.map(({ id, title }) => ({ type: 'list' as const, id, title })),
		);
	}
	return [];
}

/** Whether the contact a recipient names (`recipientNamed`: a number or a hidden number's chat id) is blocked. */
export function isBlocked(core: SandboxCore, instance: InstanceRecord, recipient: string): boolean {
	return core.store
		.all(
			'contacts',
			(contact) => contact.instanceId === instance.id && personOf(contact).recipient === recipient,
		)
		.some((contact) => contact.blocked);
}

/**
 * Who writes: a number, or (`@username`) a person who hides their number, known to the instance from then on; a
 * tap names the recipient of what it taps as that message's `to` (their contact id, when the number is hidden).
 */
function sender(core: SandboxCore, instance: InstanceRecord, from: string): Person {
	if (from.startsWith('@')) return personOf(contactOfUsername(core, instance, from));
	const named = findPerson(core, instance, from);
	return typeof named === 'object' ? named : findPersonByNumber(core, instance, from);
}

/** A message from a contact, injected by the sandbox-only `inbound` endpoint. */
export function receiveMessage(
	core: SandboxCore,
	instance: InstanceRecord,
	input: {
		from: string;
		/** The text, or the caption of a file. */
		text?: string;
		groupId?: string;
		/** A tap on a button or list row (the sandbox's `tap`). */
		reply?: MessageRecord['reply'];
		media?: MediaFile;
		/** A file received as a voice note or a sticker, rather than by its media type. */
		mediaKind?: 'voice' | 'sticker';
		/** The message of the same chat it replies to (quotes), as a send's `quotedMessageId`. */
		quotedMessageId?: string;
		/** People the text mentions (members of its group), and everyone in a group. */
		mentions?: string[];
		mentionEveryone?: boolean;
	},
): MessageRecord {
	requireConnected(core, instance.workspaceId, instance.id);
	const person = sender(core, instance, input.from);
	if (isBlocked(core, instance, person.recipient)) {
		throw conflict(
			'contact_blocked',
			`${input.from} is blocked on instance ${instance.id}: its messages are not received`,
		);
	}
	if (input.groupId !== undefined)
		requireGroup(core, instance.workspaceId, instance.id, input.groupId);
	const chatId = chatIdOf(input.groupId ?? person.recipient);
	if (input.quotedMessageId !== undefined)
		requireQuotable(core, instance, chatId, input.quotedMessageId);
	const mentioned = checkedMentions(core, instance, input.groupId ?? person.recipient, input);
	const file = input.media
		? receivedFile(core, instance.workspaceId, input.media, input.text, input.mediaKind)
		: undefined;
	const content: Record<string, unknown> = file?.content ?? { text: input.text ?? '' };
	if (input.quotedMessageId !== undefined) content.quotedMessageId = input.quotedMessageId;
	const now = core.now().toISOString();
	const message = core.store.insert('messages', {
		id: newId('msg'),
		workspaceId: instance.workspaceId,
		instanceId: instance.id,
		chatId,
		direction: 'inbound',
		from: person.from,
		to: instance.phoneNumber,
		...(person.phone ? { phone: person.phone } : {}),
		...(person.username ? { username: person.username } : {}),
		type: file?.type ?? (input.reply ? 'reply' : 'text'),
		...(file ? { media: file.media } : {}),
		status: 'delivered',
		content,
		error: null,
		...(input.reply ? { reply: input.reply } : {}),
		...mentioned,
		mentionsMe: mentionsInstance(instance, mentioned),
		createdAt: now,
		updatedAt: now,
	});
	const followUps = takeAnswers(core, message);
	core.emit(instance.workspaceId, 'message.received', presentMessage(message), {
		instanceId: instance.id,
	});
	for (const followUp of followUps) followUp();
	for (const watch of core.messageWatchers) watch(message);
	return message;
}

/** A contact quotes a message of its own chat: any other id is 400 naming `body.quotedMessageId`. */
function requireQuotable(
	core: SandboxCore,
	instance: InstanceRecord,
	chatId: string,
	messageId: string,
): void {
	const quoted = core.store.find('messages', instance.workspaceId, messageId);
	if (quoted && quoted.instanceId === instance.id && quoted.chatId === chatId) return;
	const problem = `no message ${messageId} in this chat (${chatId}) of instance ${instance.id}`;
	throw new HttpError(400, 'validation_failed', `"quotedMessageId": ${problem}`, [
		{ field: 'body.quotedMessageId', message: problem },
	]);
}
