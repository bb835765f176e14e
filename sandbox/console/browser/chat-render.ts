import type { CallView, ChatView, MessageView } from '../views';
import { actButtons, DELETED_TEXT, deletedBody, type ActActions } from './chat-acts';
import { callRow } from './chat-calls';
import { mentionedText, mentionMark, pollOptions } from './chat-kinds';
import { pictureOf, stickerImage, voicePlayer } from './chat-media';
import { el } from './dom';

/**
 * The chat view's messages as the contact's phone shows them: the contact's own on the right, the instance's
 * (what n8n sends) and other group members' on the left; each with its quote, its status, "edited", and the
 * reactions it got. Reactions are shown on the message they react to, not as messages of their own. Calls show
 * as lines between the messages, and the instance's scheduled sends (still to go, or cancelled) at their time.
 */

export interface BubbleActions extends ActActions {
	/** The contact replies to (quotes) this message. */
	quote(message: MessageView): void;
	/** The contact taps a button or list row of this message. */
	tap(message: MessageView, choiceId: string): void;
	/** The contact votes on a poll (no option: the vote is taken back). */
	vote(message: MessageView, optionIndexes: number[]): void;
	/** The contact hangs up their call. */
	hangUp(call: CallView): void;
}

interface Choice {
	id: string;
	title: string;
	description?: string | null;
}
type Content = {
	text?: string;
	caption?: string | null;
	fileName?: string | null;
	mimeType?: string;
	size?: number;
	mediaType?: string;
	quotedMessageId?: string;
	messageId?: string;
	emoji?: string;
	header?: string | null;
	footer?: string | null;
	buttons?: Choice[];
	buttonText?: string;
	sections?: Array<{ title?: string | null; rows?: Choice[] }>;
	question?: string;
	options?: string[];
	latitude?: number;
	longitude?: number;
	name?: string | null;
	address?: string | null;
	contacts?: Array<{ name: string; phoneNumbers: string[] }>;
};

const contentOf = (message: MessageView) => (message.content ?? {}) as Content;

const FILE_KIND: Record<string, string> = {
	image: 'Image',
	video: 'Video',
	audio: 'Audio',
	voice: 'Voice note',
	sticker: 'Sticker',
	document: 'Document',
};

/** A message's text in one line, for a quote. */
export function summaryOf(message: MessageView): string {
	// Its content is gone: a quote of it says what the chat shows.
	if (message.deletedAt) return DELETED_TEXT;
	const content = contentOf(message);
	if (message.media || FILE_KIND[message.type]) {
		const name = content.fileName ?? message.media?.fileName ?? 'a file';
		return `${FILE_KIND[message.type] ?? 'File'}: ${name}${content.caption ? ` · ${content.caption}` : ''}`;
	}
	if (message.type === 'poll') return `Poll: ${content.question ?? ''}`;
	if (message.type === 'location')
		return `Location: ${content.name ?? `${content.latitude}, ${content.longitude}`}`;
	if (message.type === 'contact') return `Contact card: ${content.contacts?.[0]?.name ?? ''}`;
	return content.text ?? message.type;
}

function sizeOf(bytes: number | undefined): string {
	if (bytes === undefined) return '';
	return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

/** Who the chat is seen by, and what it shows besides the messages. */
interface Seen {
	view: ChatView;
	me: string;
	actions: BubbleActions;
}

/** A text or caption, with its mentions highlighted. */
function textOf(text: string, message: MessageView, seen: Seen): HTMLElement {
	const own = seen.view.instance.phoneNumber;
	return el('div', { className: 'text' }, mentionedText(text, message, seen.me, own));
}

/** What the message says, by its type. */
function bodyOf(message: MessageView, mine: boolean, seen: Seen): Node[] {
	const { actions } = seen;
	const content = contentOf(message);
	const nodes: Node[] = [];
	if (message.type === 'voice') return [voicePlayer(message)];
	if (message.type === 'sticker') return [stickerImage(message)];
	if (message.media || FILE_KIND[message.type]) {
		// An image the service keeps is shown; one it has no file for (a URL not fetched yet, or failed) is named.
		if (message.type === 'image' && message.media) nodes.push(pictureOf(message));
		nodes.push(
			el('div', { className: 'file' }, [
				el('strong', { text: FILE_KIND[message.type] ?? 'File' }),
				` ${content.fileName ?? message.media?.fileName ?? ''} · ${content.mimeType ?? message.media?.mimeType ?? ''} · ${sizeOf(content.size ?? message.media?.size)}`,
			]),
		);
		if (content.caption) nodes.push(textOf(content.caption, message, seen));
		return nodes;
	}
	if (message.type === 'reply' && message.reply) {
		nodes.push(el('div', { className: 'text', text: `Tapped “${message.reply.title}”` }));
		return nodes;
	}
	if (content.header) nodes.push(el('div', { className: 'header', text: content.header }));
	nodes.push(textOf(summaryOf(message), message, seen));
	if (message.type === 'poll') {
		nodes.push(pollOptions(message, seen.view.polls[message.id], seen.me, actions.vote));
	}
	if (content.footer) nodes.push(el('div', { className: 'footer muted', text: content.footer }));
	const tappable = !mine && message.direction === 'outbound';
	if (message.type === 'buttons') {
		nodes.push(choices(message, content.buttons ?? [], tappable, actions));
	}
	if (message.type === 'list') {
		if (content.buttonText)
			nodes.push(el('div', { className: 'list-title muted', text: content.buttonText }));
		for (const section of content.sections ?? []) {
			if (section.title) nodes.push(el('div', { className: 'section-title', text: section.title }));
			nodes.push(choices(message, section.rows ?? [], tappable, actions));
		}
	}
	return nodes;
}

function choices(
	message: MessageView,
	offered: Choice[],
	tappable: boolean,
	actions: BubbleActions,
): HTMLElement {
	return el(
		'div',
		{ className: 'choices' },
		offered.map((choice) => {
			const button = el('button', {
				type: 'button',
				className: 'secondary choice',
				'data-id': choice.id,
				title: choice.description ?? undefined,
				disabled: !tappable,
				text: choice.title,
			});
			button.addEventListener('click', () => actions.tap(message, choice.id));
			return button;
		}),
	);
}

const STATUS_MARK: Record<string, string> = {
	pending: '🕓 pending',
	sent: '✓ sent',
	delivered: '✓✓ delivered',
	read: '✓✓ read',
	failed: '⚠ failed',
	cancelled: '✕ cancelled',
};

const hhmm = (value: string) => new Date(value).toISOString().slice(11, 16);

/** When a scheduled send goes (or went, or would have gone); nothing for a message sent at once. */
function scheduledMark(message: MessageView): HTMLElement | null {
	if (!message.sendAt) return null;
	const when = `${new Date(message.sendAt).toISOString().slice(0, 10)} ${hhmm(message.sendAt)} UTC`;
	// A scheduled send still to go, or cancelled, has a status of its own (not a message's).
	const state: string = message.status;
	const text =
		state === 'scheduled'
			? `🕓 scheduled for ${when}`
			: state === 'cancelled'
				? `scheduled for ${when}`
				: `scheduled for ${when}${message.late ? ', sent late' : ''}`;
	return el('span', { className: 'scheduled-at', text });
}

function metaOf(message: MessageView): HTMLElement {
	const time = message.createdAt ? hhmm(message.createdAt) : '';
	const state: string = message.status;
	const status = state === 'scheduled' ? '' : (STATUS_MARK[state] ?? state);
	return el('div', { className: 'meta' }, [
		scheduledMark(message),
		message.editedAt ? el('span', { className: 'edited', text: 'edited' }) : null,
		// Written on the business's own phone, not sent through the API (hand-over): a person answered.
		message.fromBusinessPhone
			? el('span', { className: 'from-phone', text: 'from the business’s phone' })
			: null,
		// A send still to go has no time of its own yet: its mark says when.
		state === 'scheduled' ? null : el('span', { text: time }),
		el('span', {
			hidden: !status,
			className: `status ${message.status}`,
			'data-status': message.status,
			text: status,
		}),
		message.error ? el('span', { className: 'failure', text: message.error.message }) : null,
	]);
}

type Reactions = Map<string, Map<string, string>>;

/** Each sender's latest reaction to each message; an empty emoji takes it away. */
function reactionsOf(messages: MessageView[]): Reactions {
	const reactions: Reactions = new Map();
	for (const message of messages) {
		const { messageId, emoji } = contentOf(message);
		if (message.type !== 'reaction' || !messageId) continue;
		const bySender = reactions.get(messageId) ?? new Map<string, string>();
		if (emoji) bySender.set(message.from ?? '', emoji);
		else bySender.delete(message.from ?? '');
		reactions.set(messageId, bySender);
	}
	return reactions;
}

function bubbleOf(
	message: MessageView,
	seen: Seen,
	byId: Map<string, MessageView>,
	reactions: Reactions,
): HTMLElement {
	const { view, me, actions } = seen;
	const mine = message.direction === 'inbound' && message.from === me;
	// Not sent (yet): nothing to quote.
	const state: string = message.status;
	const unsent = state === 'scheduled' || state === 'cancelled';
	const deleted = Boolean(message.deletedAt);
	const content = contentOf(message);
	const quoted = content.quotedMessageId ? byId.get(content.quotedMessageId) : undefined;
	const replyButton =
		unsent || deleted
			? null
			: el('button', {
					type: 'button',
					className: 'link reply',
					text: 'Reply',
					title: 'Reply to (quote) this message',
				});
	replyButton?.addEventListener('click', () => actions.quote(message));
	const sender = mine ? null : message.direction === 'outbound' ? view.instance.name : message.from;
	const reacted = [...(reactions.get(message.id)?.values() ?? [])];
	const kind = message.type === 'sticker' ? ' sticker' : unsent ? ` ${message.status}` : '';
	return el(
		'li',
		{
			className: `bubble ${mine ? 'mine' : 'theirs'}${kind}`,
			'data-message-id': message.id,
			'data-direction': message.direction,
			'data-type': message.type,
			'data-status': message.status,
		},
		[
			sender ? el('div', { className: 'sender', text: sender }) : null,
			mentionMark(message, me, view.instance.name),
			content.quotedMessageId
				? el('div', {
						className: 'quote',
						'data-quoted-id': content.quotedMessageId,
						text: quoted ? summaryOf(quoted) : 'an earlier message',
					})
				: null,
			...(deleted ? [deletedBody()] : bodyOf(message, mine, seen)),
			reacted.length ? el('div', { className: 'reactions', text: reacted.join(' ') }) : null,
			el('div', { className: 'foot' }, [
				metaOf(message),
				replyButton,
				...(unsent ? [] : actButtons(message, mine, reactions.get(message.id)?.get(me), actions)),
			]),
		],
	);
}

type Entry = { at: string; message: MessageView } | { at: string; call: CallView };

/**
 * The chat's messages, calls and scheduled sends in time order: a send still to go at its time (so last), a
 * cancelled one when it was cancelled.
 */
function timelineOf(view: ChatView): Entry[] {
	const scheduled = view.scheduled.map((record) => {
		const message = record as unknown as MessageView & { cancelledAt?: string };
		return { at: message.cancelledAt ?? message.sendAt ?? message.createdAt, message };
	});
	const entries: Entry[] = [
		...view.messages
			.filter((message) => message.type !== 'reaction')
			.map((message) => ({ at: message.createdAt, message })),
		...view.calls.map((call) => ({ at: call.createdAt, call })),
		...scheduled,
	];
	return entries.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}

/** The chat's bubbles and call lines, oldest first. `me` is the contact (or the group member) the view writes as. */
export function renderBubbles(view: ChatView, me: string, actions: BubbleActions): HTMLElement[] {
	const byId = new Map(view.messages.map((message) => [message.id, message]));
	const reactions = reactionsOf(view.messages);
	const seen = { view, me, actions };
	return timelineOf(view).map((entry) =>
		'call' in entry
			? callRow(entry.call, me, byId, actions.hangUp)
			: bubbleOf(entry.message, seen, byId, reactions),
	);
}
