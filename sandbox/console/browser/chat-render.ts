import type { ChatView, MessageView } from '../views';
import { el } from './dom';

/**
 * The chat view's messages as the contact's phone shows them: the contact's own on the right, the instance's
 * (what n8n sends) and other group members' on the left; each with its quote, its status, "edited", and the
 * reactions it got. Reactions are shown on the message they react to, not as messages of their own.
 */

export interface BubbleActions {
	/** The contact replies to (quotes) this message. */
	quote(message: MessageView): void;
	/** The contact taps a button or list row of this message. */
	tap(message: MessageView, choiceId: string): void;
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
	audio: 'Voice note',
	document: 'Document',
};

/** A message's text in one line, for a quote. */
export function summaryOf(message: MessageView): string {
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

/** What the message says, by its type. */
function bodyOf(message: MessageView, mine: boolean, actions: BubbleActions): Node[] {
	const content = contentOf(message);
	const nodes: Node[] = [];
	if (message.media || FILE_KIND[message.type]) {
		nodes.push(
			el('div', { className: 'file' }, [
				el('strong', { text: FILE_KIND[message.type] ?? 'File' }),
				` ${content.fileName ?? message.media?.fileName ?? ''} · ${content.mimeType ?? message.media?.mimeType ?? ''} · ${sizeOf(content.size ?? message.media?.size)}`,
			]),
		);
		if (content.caption) nodes.push(el('div', { className: 'text', text: content.caption }));
		return nodes;
	}
	if (message.type === 'reply' && message.reply) {
		nodes.push(el('div', { className: 'text', text: `Tapped “${message.reply.title}”` }));
		return nodes;
	}
	if (content.header) nodes.push(el('div', { className: 'header', text: content.header }));
	nodes.push(el('div', { className: 'text', text: summaryOf(message) }));
	if (message.type === 'poll') {
		nodes.push(
			el(
				'ul',
				{ className: 'options' },
				(content.options ?? []).map((option) => el('li', { text: option })),
			),
		);
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
};

function metaOf(message: MessageView): HTMLElement {
	const time = message.createdAt ? new Date(message.createdAt).toISOString().slice(11, 16) : '';
	const status = STATUS_MARK[message.status] ?? message.status;
	return el('div', { className: 'meta' }, [
		message.editedAt ? el('span', { className: 'edited', text: 'edited' }) : null,
		el('span', { text: time }),
		el('span', {
			className: `status ${message.status}`,
			'data-status': message.status,
			text: status,
		}),
		message.error ? el('span', { className: 'failure', text: message.error.message }) : null,
	]);
}

/** The chat's bubbles, oldest first. `me` is the contact (or the group member) the view writes as. */
export function renderBubbles(view: ChatView, me: string, actions: BubbleActions): HTMLElement[] {
	const byId = new Map(view.messages.map((message) => [message.id, message]));
	// Each sender's latest reaction to a message counts; an empty emoji takes it away.
	const reactions = new Map<string, Map<string, string>>();
	for (const message of view.messages) {
		const { messageId, emoji } = contentOf(message);
		if (message.type !== 'reaction' || !messageId) continue;
		const bySender = reactions.get(messageId) ?? new Map<string, string>();
		if (emoji) bySender.set(message.from ?? '', emoji);
		else bySender.delete(message.from ?? '');
		reactions.set(messageId, bySender);
	}
	const bubbles: HTMLElement[] = [];
	for (const message of view.messages) {
		if (message.type === 'reaction') continue;
		const mine = message.direction === 'inbound' && message.from === me;
		const content = contentOf(message);
		const quoted = content.quotedMessageId ? byId.get(content.quotedMessageId) : undefined;
		const replyButton = el('button', {
			type: 'button',
			className: 'link reply',
			text: 'Reply',
			title: 'Reply to (quote) this message',
		});
		replyButton.addEventListener('click', () => actions.quote(message));
		const sender = mine
			? null
			: message.direction === 'outbound'
				? view.instance.name
				: message.from;
		const reacted = [...(reactions.get(message.id)?.values() ?? [])];
		bubbles.push(
			el(
				'li',
				{
					className: `bubble ${mine ? 'mine' : 'theirs'}`,
					'data-message-id': message.id,
					'data-direction': message.direction,
					'data-type': message.type,
				},
				[
					sender ? el('div', { className: 'sender', text: sender }) : null,
					content.quotedMessageId
						? el('div', {
								className: 'quote',
								'data-quoted-id': content.quotedMessageId,
								text: quoted ? summaryOf(quoted) : 'an earlier message',
							})
						: null,
					...bodyOf(message, mine, actions),
					reacted.length
						? el('div', {
								className: 'reactions',
								text: reacted.join(' '),
							})
						: null,
					el('div', { className: 'foot' }, [metaOf(message), replyButton]),
				],
			),
		);
	}
	return bubbles;
}
