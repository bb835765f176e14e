import type { MessageMedia } from '../../src/client/resources/message-media';
import type { SandboxCore } from '../core';
import { HttpError } from '../errors';
import { mediaTypeOf, type MediaFile } from '../files/media';
import { requireFileFitsKind } from './voice-sticker';

/**
 * The files of media messages: kept when a message is sent (an upload at once; a URL is fetched shortly after, by
 * the send's handler in http/handlers/messages.ts) or received; served again by http/handlers/media.ts.
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
