import type { api } from '../../../src/client/api';
import type { SandboxCore } from '../../core';
import { HttpError, notFound } from '../../errors';
import type { MediaFile } from '../../files/media';
import { messageIdOfToken } from '../../files/signed-media';
import type { HandlerContext } from './context';

/** A message's file served again, by `GET /messages/{messageId}/media` or at a signed URL. */

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
 * this runs, once (sandbox/http/pipeline/signed.ts), and gave the workspace of the message it names.
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
