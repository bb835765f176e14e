import { Recipient } from '../../src/client/resources/message-sends';
import { Id } from '../../src/client/schemas';
import { chatIdOf } from '../handlers/context';
import { presentMessage } from '../handlers/present';
import { decodeSegment, notFound, validate, validationFailed, type ErrorDetail } from '../http';
import type { KeyRecord, Store } from '../store';
import type { MessageRecord } from '../records';
import type { ChatView } from './views';

/**
 * The chat view of the console's phone (`GET /user/api/instances/{instanceId}/chat?with=<number or group
 * id>`): one chat as the contact's phone shows it, polled once a second while the view is open. A console
 * endpoint, not an API call, so the polling neither moves the key's "last used" nor writes the data file.
 */

/** The chat's latest messages, enough for a screen: the answer stays small however long the chat. */
export const CHAT_VIEW_MESSAGES = 100;

export function chatView(
	store: Store,
	key: KeyRecord,
	instanceSegment: string,
	query: URLSearchParams,
	now: Date,
): ChatView {
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
	const chatId = chatIdOf(chatWith);
	// The chat's latest messages from the message index, newest first until the view is full: polled every
	// second, it reads what it shows, not every message stored.
	const latest: MessageRecord[] = [];
	for (const { message } of store.messageIndex.messagesOf(instance.id, chatId).walk(true)) {
		latest.push(message);
		if (latest.length === CHAT_VIEW_MESSAGES) break;
	}
	const messages = latest.reverse();
	const typing = instance.typing?.[chatId];
	return {
		instance: {
			id: instance.id,
			name: instance.name,
			status: instance.status,
			phoneNumber: instance.phoneNumber,
		},
		chatId,
		messages: messages.map(presentMessage),
		typing: typing && Date.parse(typing.until) > now.getTime() ? { ...typing } : null,
	};
}
