import type { api } from '../../../src/client/api';
import type { MessageMedia } from '../../../src/client/resources/message-media';
import type { SandboxCore } from '../../core';
import { HttpError, notFound } from '../../errors';
import { mediaTypeOf, type MediaFile } from '../../files/media';
import { messageIdOfToken } from '../../files/signed-media';
import type { HandlerContext } from './context';
import { requireFileFitsKind } from '../../channel/voice-sticker';

/**
 * The files of media messages: kept when a message is sent (an upload at once; a URL is fetched shortly after, by
 * the send's handler in messages.ts) or received, and served again by `GET /messages/{messageId}/media`.
 */

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
	kind?: 'voice' | 'sticker',
) {
	if (kind) requireFileFitsKind(kind, file);
	const media = keepFile(core, workspaceId, file);
	const type = kind ?? mediaTypeOf(file.mimeType);
	return { type, content: mediaContent(type, caption ?? null, media), media };
}

type DownloadMedia = typeof api.workspace.messages.downloadMedia;
type DownloadSignedMedia = typeof api.workspace.messages.downloadSignedMedia;

/** `GET /messages/{messageId}/media`: the bytes while they are kept, 404 without a file, 410 once gone. */
export function downloadMedia({
	core,
	workspaceId,
	params,
}: HandlerContext<DownloadMedia>): MediaFile {
	return fileOfMessage(core, workspaceId, params.messageId);
}

/**
 * `GET /signed-media/{token}`: the same file at a URL the service signed. The pipeline checked the token before
 * this runs, once (sandbox/pipeline/signed.ts), and gave the workspace of the message it names.
 */
export function downloadSignedMedia({
	core,
	workspaceId,
	params,
}: HandlerContext<DownloadSignedMedia>): MediaFile {
	return fileOfMessage(core, workspaceId, messageIdOfToken(params.token) ?? '');
}

function fileOfMessage(core: SandboxCore, workspaceId: string, messageId: string): MediaFile {
	const message = core.store.find('messages', workspaceId, messageId);
	if (!message) throw notFound('Message', messageId);
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
