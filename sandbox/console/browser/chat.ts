/* eslint-disable @n8n/community-nodes/no-restricted-globals -- browser code of the sandbox's console, never inside n8n */
import { USERNAME_PATTERN } from '../../../src/client/chat-ids';
import { toE164 } from '../../../src/client/phone-number';
import type { CallView, ChatView, MessageView } from '../views';
import { mentionsTyped } from './chat-kinds';
import { releaseMedia } from './chat-media';
import { renderBubbles, summaryOf } from './chat-render';
import { el, elementById, setError, show } from './dom';
import { call, callApi, messageOf, session, statusOf } from './session';

/**
 * The console's phone: one chat of an instance, as its contact (or a member of its group) sees it. What the
 * contact does goes through the sandbox-only endpoints with the signed-in key (a text: `inbound`, a file:
 * `inbound/media` or `…/upload`, a tap: `…/tap`), each arriving as `message.received`; a poll vote (`…/vote`,
 * `poll.voted`), a call (`…/calls`, `call.received`) and hanging up (`…/hang-up`) likewise; the chat itself is read
 * once a second from the console's chat view (`GET /user/api/instances/{id}/chat?with=…`), one request at a
 * time, and only while the tab is shown. Opening another chat, or signing out, ends the polling.
 */

interface OpenChat {
	instanceId: string;
	/** The contact, or the member of the group, who writes. */
	from: string;
	groupId?: string;
	/** What the chat is called in the head: the group's subject. */
	groupName?: string;
}

const POLL_MS = 1000;

let chat: OpenChat | null = null;
/** Bumped by each chat opened (or closed): a poll of an earlier one stops, and its answer is dropped. */
let generation = 0;
let quoted: MessageView | null = null;
/** The contact's own message being edited: the text typed replaces its text. */
let editing: MessageView | null = null;
let shown = '';
/** Whether the chat's last read failed, and the error line says so. */
let readFailed = false;

const errorLine = () => elementById('chat-error');

/** Opens the chat picked in the form and keeps it current. */
export function openChat(): void {
	const pickError = elementById('chat-pick-error');
	setError(pickError, '');
	if (!session.key) {
		setError(
			pickError,
			'Sign in with a workspace key first: the contact writes to one of its instances.',
		);
		return;
	}
	const instanceId = elementById<HTMLSelectElement>('chat-instance').value;
	const groupId = elementById<HTMLSelectElement>('chat-group').value || undefined;
	if (!instanceId) {
		setError(pickError, 'Instance: pick one of the workspace’s instances.');
		return;
	}
	const field = groupId ? 'Member' : 'Contact';
	const given = elementById<HTMLInputElement>('chat-from').value.trim();
	// A contact who hides their number writes as @username (one-to-one chats).
	const asUsername = !groupId && USERNAME_PATTERN.test(given);
	const from = asUsername ? { number: given } : toE164(given);
	if ('problem' in from || !(asUsername || given.startsWith('+'))) {
		const problem = 'problem' in from ? `${from.problem}.` : `"${given}" has no +.`;
		const orUsername = groupId ? '' : '; or, for a contact who hides their number, @username';
		setError(
			pickError,
			`${field}: ${problem} Write it in international form, with + and the country code: +14155550123${orUsername}.`,
		);
		return;
	}
	const groupName = elementById<HTMLSelectElement>('chat-group').selectedOptions[0]?.label;
	chat = { instanceId, from: from.number, groupId, groupName: groupId ? groupName : undefined };
	quoted = null;
	shown = '';
	releaseMedia();
	show(elementById('chat-quoting'), false);
	const list = elementById('chat-messages');
	list.replaceChildren();
	delete list.dataset.filled;
	setError(errorLine(), '');
	show(elementById('chat-phone'), true);
	void poll(++generation);
}

/** Stops showing a chat (signing out). */
export function closeChat(): void {
	chat = null;
	generation++;
	releaseMedia();
	show(elementById('chat-phone'), false);
}

async function poll(run: number): Promise<void> {
	while (run === generation && chat) {
		// Signed out meanwhile (a revoked key): the chat goes with the key.
		if (!session.key) {
			closeChat();
			return;
		}
		if (document.visibilityState === 'visible') {
			const stop = await refresh(run);
			if (stop) return;
		}
		await new Promise((done) => setTimeout(done, POLL_MS));
	}
}

/** Reads the chat and shows it; true when polling should stop (the key or the instance is gone). */
async function refresh(run = generation): Promise<boolean> {
	const open = chat;
	if (!open) return true;
	try {
		const view = await call<ChatView>(
			'GET',
			`/instances/${encodeURIComponent(open.instanceId)}/chat?with=${encodeURIComponent(open.groupId ?? open.from)}`,
		);
		if (run !== generation) return true;
		render(view, open);
		// A read that failed before (say, 429) said so; it is over. A send's error stays.
		if (readFailed) setError(errorLine(), '');
		readFailed = false;
		return false;
	} catch (failure) {
		if (run !== generation) return true;
		readFailed = true;
		setError(errorLine(), messageOf(failure));
		const status = statusOf(failure);
		return status === 401 || status === 403 || status === 404;
	}
}

function render(view: ChatView, open: OpenChat): void {
	const title = elementById('chat-title');
	title.textContent = open.groupName ?? view.instance.name;
	elementById('chat-subtitle').textContent = open.groupId
		? `as ${open.from}, with ${view.instance.name}`
		: `${view.instance.phoneNumber ?? ''} · you are ${open.from}`;
	const typing = elementById('chat-typing');
	typing.textContent = view.typing
		? view.typing.state === 'recording'
			? 'recording audio…'
			: 'typing…'
		: '';
	show(typing, Boolean(view.typing));
	elementById('chat-labels').replaceChildren(
		...view.labels.map((label) => {
			const chip = el('span', {
				className: 'label-chip',
				'data-label-id': label.id,
				text: label.name,
			});
			// Through the CSSOM: the page's policy refuses style attributes.
			chip.style.setProperty('--chip', label.color);
			return chip;
		}),
	);
	elementById('chat-reject-calls').hidden = !view.instance.rejectCalls;
	elementById('chat-handed-over').hidden = !view.handedOver;
	elementById('chat-give-back').hidden = !view.handedOver;
	const { messages, polls, calls, scheduled } = view;
	const text = JSON.stringify({ messages, polls, calls, scheduled });
	if (text === shown) return;
	shown = text;
	const list = elementById('chat-messages');
	const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
	// The phone's own messages: a contact who hides their number is named in them by their contact id.
	const me = view.you ?? open.from;
	list.replaceChildren(
		...renderBubbles(view, me, { quote: startQuote, tap, vote, hangUp, react, edit, remove }),
	);
	if (atBottom || list.dataset.filled !== 'true') list.scrollTop = list.scrollHeight;
	list.dataset.filled = 'true';
}

function startQuote(message: MessageView): void {
	editing = null;
	quoted = message;
	elementById('chat-quoting-text').textContent = `Replying to: ${summaryOf(message)}`;
	show(elementById('chat-quoting'), true);
	elementById('chat-text').focus();
}

/** The contact edits their own text: it is put in the compose box, and Send replaces it. */
function edit(message: MessageView): void {
	quoted = null;
	editing = message;
	elementById('chat-quoting-text').textContent = `Editing: ${summaryOf(message)}`;
	show(elementById('chat-quoting'), true);
	typedText().value = summaryOf(message);
	typedText().focus();
}

export function cancelQuote(): void {
	quoted = null;
	editing = null;
	show(elementById('chat-quoting'), false);
}

/** What every message the contact sends carries: who, where, and the quote. */
function sender(open: OpenChat): Record<string, string> {
	return {
		from: open.from,
		...(open.groupId ? { groupId: open.groupId } : {}),
		...(quoted ? { quotedMessageId: quoted.id } : {}),
	};
}

/**
 * Sends as the contact (the sandbox-only endpoints) or, with `base` `/api/v1`, as a workflow would through the
 * API; on success clears the quote and shows the chat at once.
 */
async function act(
	path: string,
	body: Record<string, unknown> | FormData | undefined,
	base = '/sandbox',
): Promise<boolean> {
	const open = chat;
	if (!open) return false;
	setError(errorLine(), '');
	try {
		const response = await callApi(
			'POST',
			`${base}/instances/${encodeURIComponent(open.instanceId)}${path}`,
			body,
		);
		if (!response.ok) {
			const answer = (await response.json().catch(() => null)) as {
				error?: { message?: string };
			} | null;
			setError(errorLine(), answer?.error?.message ?? `HTTP ${response.status}`);
			return false;
		}
		cancelQuote();
		await refresh();
		return true;
	} catch (failure) {
		setError(errorLine(), messageOf(failure));
		return false;
	}
}

/** The text typed, as a message (or, with a file, its caption). */
function typedText(): HTMLInputElement {
	return elementById<HTMLInputElement>('chat-text');
}

export async function sendText(): Promise<void> {
	if (!chat) return;
	const input = typedText();
	if (!input.value.trim()) {
		setError(errorLine(), 'Type a message first.');
		return;
	}
	if (editing) {
		const path = `/messages/${encodeURIComponent(editing.id)}/edit`;
		if (await act(path, { text: input.value, ...actor(chat) })) input.value = '';
		return;
	}
	const mentioned = mentionsTyped(input.value, Boolean(chat.groupId));
	if (await act('/inbound', { ...sender(chat), text: input.value, ...mentioned })) input.value = '';
}

/** Who acts on a message: in a 1:1 chat the sandbox knows (the chat's contact); in a group, the member. */
function actor(open: OpenChat): Record<string, string> {
	return open.groupId ? { from: open.from } : {};
}

async function react(message: MessageView, emoji: string): Promise<void> {
	if (!chat) return;
	await act(`/messages/${encodeURIComponent(message.id)}/react`, { emoji, ...actor(chat) });
}

async function remove(message: MessageView): Promise<void> {
	if (!chat) return;
	await act(`/messages/${encodeURIComponent(message.id)}/delete`, actor(chat));
}

/** The contact types or records in this chat, or goes online or offline (`presence.updated`). */
export async function sendPresence(): Promise<void> {
	if (!chat) return;
	const state = elementById<HTMLSelectElement>('chat-presence').value;
	const inChat = state === 'typing' || state === 'recording';
	await act('/presence', {
		from: chat.from,
		state,
		...(inChat && chat.groupId ? { groupId: chat.groupId } : {}),
	});
}

/** The channel restricts the instance (a warning before a ban: `instance.restricted`). */
export async function restrictInstance(): Promise<void> {
	const reason = elementById<HTMLSelectElement>('chat-restrict-reason').value;
	await act('/restrict', { reason, hours: 24 });
}

/**
 * The business answers from its own phone, not through the API (hand-over to a person): the typed text goes out as
 * the business (`…/answer-as-business`), and the chat is handed over.
 */
export async function answerAsBusiness(): Promise<void> {
	if (!chat) return;
	const input = typedText();
	if (!input.value.trim()) {
		setError(errorLine(), 'Type the business’s answer first.');
		return;
	}
	const chatId = encodeURIComponent(chat.groupId ?? chat.from);
	if (await act(`/chats/${chatId}/answer-as-business`, { text: input.value })) input.value = '';
}

/** The person is done: the chat goes back to the workflows (`chat.handed_back`), as the API's give-back. */
export async function giveBack(): Promise<void> {
	if (!chat) return;
	const chatId = encodeURIComponent(chat.groupId ?? chat.from);
	// No body: the contract's give-back takes none (an empty JSON object is a body, refused by the contract proxy).
	await act(`/chats/${chatId}/give-back`, undefined, '/api/v1');
}

export async function sendSample(): Promise<void> {
	if (!chat) return;
	const input = typedText();
	const caption = input.value.trim();
	const sample = elementById<HTMLSelectElement>('chat-sample').value;
	if (await act('/inbound/media', { ...sender(chat), sample, ...(caption ? { caption } : {}) }))
		input.value = '';
}

export async function uploadFile(): Promise<void> {
	const picker = elementById<HTMLInputElement>('chat-file');
	const file = picker.files?.[0];
	if (!chat || !file) return;
	const form = new FormData();
	for (const [name, value] of Object.entries(sender(chat))) form.append(name, value);
	const caption = typedText().value.trim();
	if (caption) form.append('caption', caption);
	form.append('file', file, file.name);
	if (await act('/inbound/media/upload', form)) typedText().value = '';
	picker.value = '';
}

async function tap(message: MessageView, choiceId: string): Promise<void> {
	if (!chat) return;
	// In a 1:1 chat only the recipient taps, and the sandbox knows who that is; in a group, the member.
	await act(`/messages/${encodeURIComponent(message.id)}/tap`, {
		id: choiceId,
		...(chat.groupId ? { from: chat.from } : {}),
	});
}

async function vote(message: MessageView, optionIndexes: number[]): Promise<void> {
	if (!chat) return;
	// As a tap: in a 1:1 chat the sandbox knows the voter (the poll's recipient); in a group, the member.
	await act(`/messages/${encodeURIComponent(message.id)}/vote`, {
		options: optionIndexes,
		...(chat.groupId ? { from: chat.from } : {}),
	});
}

/** The contact calls the instance (in a group: a group call). */
export async function startCall(media: 'voice' | 'video'): Promise<void> {
	if (!chat) return;
	await act('/calls', {
		from: chat.from,
		media,
		...(chat.groupId ? { groupId: chat.groupId } : {}),
	});
}

async function hangUp(call: CallView): Promise<void> {
	await act(`/calls/${encodeURIComponent(call.id)}/hang-up`, {});
}
