import { request } from 'undici';

import type { api } from '../../src/client/api';
import type { MessageMedia } from '../../src/client/resources/message-media';
import type { SandboxCore } from '../core';
import { HttpError, notFound } from '../http';
import { mediaTypeOf, type MediaFile } from '../media';
import type { MessageRecord } from '../store';
import type { HandlerContext } from './context';

/**
 * The files of media messages: kept when a message is sent (an upload at once, a URL fetched shortly after,
 * as the service fetches it to send it) or received, and served again by `GET /messages/{messageId}/media`.
 */

/** How long the sandbox waits for a file at a URL. */
const URL_FETCH_TIMEOUT_MS = 10_000;

/** A file of a message, kept; one larger than the sandbox keeps is refused before anything is stored. */
export function keepFile(core: SandboxCore, workspaceId: string, file: MediaFile): MessageMedia {
	const media = core.media.put(workspaceId, file);
	if (!media) {
		throw new HttpError(
			413,
			'payload_too_large',
			`The file is larger than the ${core.media.limits.maxFileBytes} bytes a media message may carry`,
		);
	}
	return media;
}

/** What a media message's content says of its file, sent or received. */
export function mediaContent(mediaType: string, caption: string | null, media: MessageMedia) {
	return {
		mediaType,
		caption,
		fileName: media.fileName ?? null,
		mimeType: media.mimeType,
		size: media.size,
		sha256: media.sha256,
	};
}

/** A file a contact sent, kept: the received message's type, content and media. */
export function receivedFile(
	core: SandboxCore,
	workspaceId: string,
	file: MediaFile,
	caption: string | undefined,
) {
	const media = keepFile(core, workspaceId, file);
	const type = mediaTypeOf(file.mimeType);
	return { type, content: mediaContent(type, caption ?? null, media), media };
}

/**
 * Fetches the file of a media message sent by URL, shortly after the send, and keeps it with the message.
 * A URL that cannot be fetched (no network, an error status, too large) leaves the message without a file:
 * it still counts as sent, and a download answers 404.
 */
export function keepFromUrl(
	core: SandboxCore,
	message: MessageRecord,
	source: { url: string; mimeType?: string; fileName?: string },
): void {
	core.scheduler.after(0, async () => {
		const file = await fetchFile(source.url, core.media.limits.maxFileBytes);
		if (!file || core.scheduler.isClosed) return;
		const media = core.media.put(message.workspaceId, {
			data: file.data,
			mimeType: source.mimeType ?? file.mimeType,
			fileName: source.fileName ?? fileNameInUrl(source.url),
		});
		if (!media || !core.store.get('messages', message.id)) return;
		message.media = media;
		core.onBackgroundChange();
	});
}

async function fetchFile(url: string, maxBytes: number): Promise<MediaFile | undefined> {
	try {
		const response = await request(url, {
			method: 'GET',
			signal: AbortSignal.timeout(URL_FETCH_TIMEOUT_MS),
			headers: { 'user-agent': 'Multichannel-Sandbox-Media/1.0' },
		});
		if (response.statusCode !== 200) {
			await response.body.dump();
			return undefined;
		}
		const chunks: Buffer[] = [];
		let size = 0;
		for await (const chunk of response.body) {
			size += (chunk as Buffer).length;
			if (size > maxBytes) {
				response.body.destroy();
				return undefined;
			}
			chunks.push(chunk as Buffer);
		}
		const type = response.headers['content-type'];
		return {
			data: Buffer.concat(chunks),
			mimeType: (Array.isArray(type) ? type[0] : type) ?? 'application/octet-stream',
			fileName: null,
		};
	} catch {
		return undefined;
	}
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

type DownloadMedia = typeof api.workspace.messages.downloadMedia;

/** `GET /messages/{messageId}/media`: the bytes while they are kept, 404 without a file, 410 once gone. */
export function downloadMedia({
	core,
	workspaceId,
	params,
}: HandlerContext<DownloadMedia>): MediaFile {
	const message = core.store.find('messages', workspaceId, params.messageId);
	if (!message) throw notFound('Message', params.messageId);
	if (!message.media) {
		throw new HttpError(404, 'no_media', `Message ${message.id} has no file to download`);
	}
	const file = core.media.get(workspaceId, message.media.id);
	if (!file) {
		throw new HttpError(
			410,
			'media_gone',
			`The file of message ${message.id} is no longer kept (the service keeps files for a limited time); ask for it to be sent again`,
		);
	}
	return {
		data: file.data,
		mimeType: message.media.mimeType,
		fileName: message.media.fileName ?? null,
	};
}
