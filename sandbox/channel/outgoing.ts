import type { MessageMedia } from '../../src/client/resources/message-media';
import type { SandboxCore } from '../core';
import { fetchFile, type FetchedFile } from '../outbound/fetch-file';
import { scheduleProgress, setMessageStatus } from './progress';
import type { InstanceRecord, MessageRecord } from '../store/store';
import { chatIdOf } from './chat-ids';
import { sentTo } from './people';
import { presentMessage } from '../present';
import { trackLinks } from '../links/tracked-links';
import { mediaKindProblem } from './voice-sticker';

/**
 * A message going out, now or at its scheduled time (scheduled.ts): stored as `sent` (`message.sent`), then the
 * recipient's progress, or (media by URL) first fetching the file. One path, so a scheduled send goes exactly as
 * it would have gone then.
 */

export interface Outgoing {
	id: string;
	workspaceId: string;
	instance: InstanceRecord;
	to: string;
	type: string;
	content: Record<string, unknown>;
	media?: MessageMedia;
	trackLinks?: boolean;
	/** Media by URL: the file is fetched when the message goes. */
	fetch?: { url: string; mimeType?: string; fileName?: string };
	/** A scheduled send: when it was asked to go, and whether it went late (the service was down then). */
	scheduled?: { sendAt: string; late: boolean };
	/** Whom its text or caption mentions (channel/mentions.ts). */
	mentioned?: Pick<MessageRecord, 'mentions' | 'mentionEveryone'>;
}

/** Stores the message as sent, emits `message.sent` and starts what follows; `beforeEmit` runs in the same step. */
export function sendOutgoing(
	core: SandboxCore,
	outgoing: Outgoing,
	beforeEmit: (message: MessageRecord) => void = () => {},
): MessageRecord {
	const { id, workspaceId, instance, to, type, content, media } = outgoing;
	const trackedLinks = outgoing.trackLinks
		? trackLinks(core, workspaceId, { messageId: id, recipient: to }, type, content)
		: undefined;
	const now = core.now().toISOString();
	const chatId = chatIdOf(to);
	// Sending to a chat ends the instance's typing indicator there, as the channel does.
	if (instance.typing?.[chatId]) {
		instance.typing = Object.fromEntries(
			Object.entries(instance.typing).filter(([typingChat]) => typingChat !== chatId),
		);
	}
	const message = core.store.insert('messages', {
		id,
		workspaceId,
		instanceId: instance.id,
		chatId,
		direction: 'outbound',
		from: instance.phoneNumber,
		to: sentTo(core, instance, to),
		type,
		...(media ? { media } : {}),
		status: 'sent',
		content,
		error: null,
		...(trackedLinks ? { trackedLinks } : {}),
		...outgoing.mentioned,
		createdAt: now,
		updatedAt: now,
		...(outgoing.scheduled
			? {
					sendAt: outgoing.scheduled.sendAt,
					sentAt: now,
					...(outgoing.scheduled.late ? { late: true } : {}),
				}
			: {}),
	});
	beforeEmit(message);
	core.emit(workspaceId, 'message.sent', presentMessage(message), { instanceId: instance.id });
	if (outgoing.fetch) keepFromUrl(core, message, outgoing.fetch);
	else scheduleProgress(core, message);
	return message;
}

/**
 * Fetches the file of a media message sent by URL, as the service does to send it, and keeps it with the
 * message; the recipient's progress (delivered, read) starts once the fetch has ended. A URL the outbound
 * policy refuses (a name resolving to a refused address, a redirect to one) fails the message
 * (`message.failed`, error `media_url_refused`), and so does a voice note that is not OGG/Opus or a sticker that
 * is not a WebP within its limit (`not_a_voice_note`, `not_a_sticker`: only the bytes tell), and so does a file it
 * cannot fetch (an error status, too large, no answer: `media_unreachable`, saying why): a person would otherwise
 * see the message sent and read with no file in it.
 */
export function keepFromUrl(
	core: SandboxCore,
	message: MessageRecord,
	source: { url: string; mimeType?: string; fileName?: string },
): void {
	core.scheduler.after(0, async () => {
		const fetched = await fetchFile(
			source.url,
			core.media.limits.maxFileBytes,
			core.outbound.media,
		);
		if (core.scheduler.isClosed || !core.store.get('messages', message.id)) return;
		const failure = fetchFailure(message.type, fetched);
		if (failure !== null || !('file' in fetched)) {
			message.error = failure;
			setMessageStatus(core, message, 'failed');
			core.emit(message.workspaceId, 'message.failed', presentMessage(message), {
				instanceId: message.instanceId,
			});
		} else {
			const media = core.media.put(message.workspaceId, {
				data: fetched.file.data,
				mimeType: source.mimeType ?? fetched.file.mimeType,
				fileName: source.fileName ?? fileNameInUrl(source.url),
			});
			if (media) message.media = media;
		}
		scheduleProgress(core, message);
		core.onBackgroundChange();
	});
}

/** Why a message sent by URL fails once its fetch has ended; null when its file is kept. */
function fetchFailure(type: string, fetched: FetchedFile): MessageRecord['error'] {
	if ('refused' in fetched) return { code: 'media_url_refused', message: fetched.refused };
	if ('failed' in fetched) {
		return {
			code: 'media_unreachable',
			message: `The file at the URL could not be fetched: ${fetched.failed}`,
		};
	}
	const misfit = mediaKindProblem(type, fetched.file);
	if (misfit === undefined) return null;
	return {
		code: type === 'voice' ? 'not_a_voice_note' : 'not_a_sticker',
		message: `The file at the URL is refused: ${misfit}`,
	};
}

function fileNameInUrl(url: string): string | null {
	const last = new URL(url).pathname.split('/').pop();
	if (!last) return null;
	try {
		return decodeURIComponent(last);
	} catch {
		return last;
	}
}
