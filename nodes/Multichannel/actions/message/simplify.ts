import { Message } from '../../../../src/client/resources/messages';
import { z } from '../../../../src/client/zod';
import { compact } from '../../../shared/values';
import { sizeInWords } from '../../../shared/words';

/**
 * A message simplified (Simplify), the one form of Get, Get Many and a chat's last message, made for an AI model
 * to read: who wrote it, when, which way, its kind, its text in words (a location, a poll or a contact card
 * too), the button it taps, the message it quotes, and its file described, since n8n passes no file to or from
 * a tool.
 */
export const SimpleMessage = z.object({
	id: z.string(),
	from: z
		.string()
		.optional()
		.describe('Who wrote it: a phone number, or a contact ID (ct_…) when they hide their number'),
	username: z.string().optional().describe("The writer's username (without @), when they have one"),
	direction: Message.shape.direction,
	type: Message.shape.type,
	text: z.string().optional().describe('The text, a caption, or what the message is in words'),
	reply: z
		.object({ id: z.string(), title: z.string() })
		.optional()
		.describe('The button or list row the contact tapped'),
	quotedMessageId: z.string().optional().describe('The message it replies to'),
	media: z.string().optional().describe('Its file, described: kind, name, type and size'),
	createdAt: Message.shape.createdAt,
});
export type SimpleMessage = z.output<typeof SimpleMessage>;

export function simplifyMessage(message: Message): SimpleMessage {
	const content = message.content ?? {};
	return compact({
		id: message.id,
		from: message.from ?? undefined,
		username: message.username,
		direction: message.direction,
		type: message.type,
		text: textOf(message.type, content),
		reply: message.reply ? { id: message.reply.id, title: message.reply.title } : undefined,
		quotedMessageId: stringOf(content.quotedMessageId),
		media: mediaOf(message),
		createdAt: message.createdAt,
	});
}

const stringOf = (value: unknown) =>
	typeof value === 'string' && value !== '' ? value : undefined;
const titlesOf = (entries: unknown) =>
	Array.isArray(entries)
		? entries.map((entry) => stringOf((entry as { title?: unknown })?.title) ?? '?').join(' / ')
		: '';

/** What a message says, in words, whatever its kind. */
function textOf(type: string | undefined, content: Record<string, unknown>): string | undefined {
	const text = stringOf(content.text) ?? stringOf(content.caption);
	switch (type) {
		case 'buttons':
			return `${text ?? ''} [buttons: ${titlesOf(content.buttons)}]`.trim();
		case 'list': {
			const sections = Array.isArray(content.sections) ? content.sections : [];
			const rows = sections.flatMap((section) => (section as { rows?: unknown[] })?.rows ?? []);
			return `${text ?? ''} [list: ${titlesOf(rows)}]`.trim();
		}
		case 'location': {
			const place = [stringOf(content.name), stringOf(content.address)].filter(Boolean).join(', ');
			return `Location${place ? ` ${place}` : ''} (${String(content.latitude)}, ${String(content.longitude)})`;
		}
		case 'contact':
			return `Contact card: ${Array.isArray(content.contacts) ? content.contacts.map((card) => stringOf((card as { name?: unknown })?.name) ?? '?').join(', ') : ''}`;
		case 'reaction':
			return `Reaction ${stringOf(content.emoji) ?? '(removed)'} to message ${String(content.messageId)}`;
		case 'poll': {
			const options = Array.isArray(content.options) ? content.options.join(' / ') : '';
			return `Poll: ${String(content.question)} (${options})`;
		}
		default:
			return text;
	}
}

/** Its file in words: `image "photo.jpg" (image/jpeg, 12.3 KB)`. */
function mediaOf(message: Message): string | undefined {
	const media = message.media;
	if (!media) return undefined;
	const name = media.fileName ? ` "${media.fileName}"` : '';
	return `${message.type ?? 'file'}${name} (${media.mimeType}, ${sizeInWords(media.size)})`;
}
