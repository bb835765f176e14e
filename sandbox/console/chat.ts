import { Recipient } from '../../src/client/resources/message-sends';
import { Id } from '../../src/client/schemas';
import { labelIdsOf } from '../channel/chat-labels';
import type { SandboxCore } from '../core';
import { presentCall } from '../channel/calls';
import { chatIdOf } from '../channel/chat-ids';
import { findPerson } from '../channel/people';
import { USERNAME_PATTERN } from '../../src/client/chat-ids';
import { pollResults } from '../channel/polls';
import { handOverOf } from '../channel/hand-over';
import { presentMessage } from '../present';
import { decodeSegment, validate } from '../http/request-values';
import { notFound, validationFailed, type ErrorDetail } from '../errors';
import { presentScheduled } from '../channel/scheduled';
import type { KeyRecord } from '../store/store';
import type { MessageRecord } from '../store/records';
import type { ChatView } from './views';

/**
 * The chat view of the console's phone (`GET /user/api/instances/{instanceId}/chat?with=<number, @username
 * or group id>`): one chat as the contact's phone shows it, polled once a second while the view is open. A console
 * endpoint, not an API call, so the polling neither moves the key's "last used" nor writes the data file.
 */

/** The chat's latest messages, enough for a screen: the answer stays small however long the chat. */
export const CHAT_VIEW_MESSAGES = 100;
/** The chat's latest calls, and its scheduled sends still to go or cancelled, shown beside the messages. */
export const CHAT_VIEW_EXTRAS = 20;

export function chatView(
	core: SandboxCore,
	key: KeyRecord,
	instanceSegment: string,
	query: URLSearchParams,
): ChatView {
	const { store } = core;
	const details: ErrorDetail[] = [];
	const instanceId = validate(
		Id,
		decodeSegment(instanceSegment, 'instanceId'),
		'instanceId',
		details,
	);
	const chatWith = validate(Recipient, query.get('with') ?? undefined, 'query.with', details);
	if (!instanceId || !chatWith) throw validationFailed(details);
	const instance = store.find('instances', key.workspaceId, instanceId);
	if (!instance) throw notFound('Instance', instanceId);
	// A username the instance does not know yet is a phone that has not written: its chat is empty, not an error.
	const person = findPerson(core, instance, chatWith);
	if (person === 'unknown' && !USERNAME_PATTERN.test(chatWith)) throw notFound('Contact', chatWith);
	const chatId = person === 'unknown' ? '' : person ? chatIdOf(person.recipient) : chatWith;
	// The chat's latest messages from the message index, newest first until the view is full: polled every
	// second, it reads what it shows, not every message stored.
	const latest: MessageRecord[] = [];
	for (const { message } of store.messageIndex.messagesOf(instance.id, chatId).walk(true)) {
		latest.push(message);
		if (latest.length === CHAT_VIEW_MESSAGES) break;
	}
	const messages = latest.reverse();
	const inChat = (record: { instanceId: string; chatId: string }) =>
		record.instanceId === instance.id && record.chatId === chatId;
	// Calls are bounded per instance, scheduled sends per workspace: both small enough to scan each second.
	const calls = store.all('calls', inChat).slice(-CHAT_VIEW_EXTRAS);
	// A scheduled send that went is a message of the chat already.
	const scheduled = store
		.all('scheduledMessages', (record) => inChat(record) && record.status !== 'sent')
		.slice(-CHAT_VIEW_EXTRAS);
	const polls: ChatView['polls'] = {};
	for (const message of messages) {
		if (message.type === 'poll' && message.direction === 'outbound')
			polls[message.id] = pollResults(message);
	}
	const typing = instance.typing?.[chatId];
	return {
		instance: {
			id: instance.id,
			name: instance.name,
			status: instance.status,
			phoneNumber: instance.phoneNumber,
			rejectCalls: instance.callSettings?.rejectCalls ?? false,
		},
		chatId,
		...(typeof person === 'object' ? { you: person.from } : {}),
		messages: messages.map(presentMessage),
		typing: typing && Date.parse(typing.until) > core.now().getTime() ? { ...typing } : null,
		labels: labelIdsOf(core, instance.id, chatId).flatMap((id) => {
			const label = store.find('labels', key.workspaceId, id);
			return label ? [{ id: label.id, name: label.name, color: label.color }] : [];
		}),
		polls,
		handedOver: handOverOf(core, instance.id, chatId).handedOver,
		calls: calls.map(presentCall),
		scheduled: scheduled.map((record) => presentScheduled(core, record)),
	};
}
