import { createHash } from 'crypto';

import {
	api,
	API_PREFIX,
	UnexpectedResponseError,
	type CallOptions,
	type DownloadedFile,
	type WorkspaceClient,
} from '../../src/client';
import type { MessageMedia } from '../../src/client/resources/message-media';

/** The files of messages, as the Download Media operation and the Multichannel Trigger fetch them. */

/** Said wherever a file would reach an AI agent: n8n drops binary data from a tool's output. */
export const NO_FILES_FOR_TOOLS = 'AI agents receive no files (binary data) from tools in n8n.';

const EXTENSIONS: Record<string, string> = {
	'image/jpeg': 'jpg',
	'image/png': 'png',
	'image/gif': 'gif',
	'image/webp': 'webp',
	'audio/ogg': 'ogg',
	'audio/mpeg': 'mp3',
	'audio/mp4': 'm4a',
	'video/mp4': 'mp4',
	'application/pdf': 'pdf',
};

/** A message's file as downloaded and checked, always with a name. */
export type MessageFile = DownloadedFile & { fileName: string };

/** The file's own name, or one made from the message id and the MIME type (`msg_….pdf`). */
export function mediaFileName(
	messageId: string,
	fileName: string | null | undefined,
	mimeType: string,
): string {
	if (fileName) return fileName;
	const extension = EXTENSIONS[mimeType.split(';')[0].trim().toLowerCase()] ?? 'bin';
	return `${messageId}.${extension}`;
}

/**
 * Downloads the file a message describes, with the key, and checks it against that description (size and
 * SHA-256), so a file cut short or changed on the way is an error, never a silently damaged attachment.
 */
export async function downloadMessageFile(
	client: WorkspaceClient,
	messageId: string,
	media: MessageMedia,
	options?: CallOptions,
): Promise<MessageFile> {
	return checked(messageId, media, await client.messages.downloadMedia({ messageId }, options));
}

/** The same, at the file's signed URL (`signedMediaToken`): no key needed, so no credential read. */
export async function downloadSignedMessageFile(
	client: WorkspaceClient,
	token: string,
	messageId: string,
	media: MessageMedia,
	options?: CallOptions,
): Promise<MessageFile> {
	return checked(messageId, media, await client.messages.downloadSignedMedia({ token }, options));
}

const SIGNED_MEDIA_PATH = `${API_PREFIX}${api.workspace.messages.downloadSignedMedia.path.replace('{token}', '')}`;

/**
 * The token of a file's signed URL (`media.downloadUrl` of a delivered event), which is then fetched at the
 * service's own base URL: only the path is taken from the event, so a URL naming another host is never
 * fetched, and a service known by another name (localhost, 127.0.0.1) still works.
 */
export function signedMediaToken(downloadUrl: unknown): string | undefined {
	if (typeof downloadUrl !== 'string') return undefined;
	let path: string;
	try {
		path = new URL(downloadUrl).pathname;
	} catch {
		return undefined;
	}
	const at = path.lastIndexOf(SIGNED_MEDIA_PATH);
	if (at < 0) return undefined;
	const encoded = path.slice(at + SIGNED_MEDIA_PATH.length);
	try {
		const token = decodeURIComponent(encoded);
		return token && !token.includes('/') ? token : undefined;
	} catch {
		return undefined;
	}
}

function checked(messageId: string, media: MessageMedia, file: DownloadedFile): MessageFile {
	const sha256 = createHash('sha256').update(file.data).digest('hex');
	if (media.sha256 && sha256 !== media.sha256.toLowerCase()) {
		throw new UnexpectedResponseError(
			`The file of message ${messageId} arrived damaged: ${file.size} bytes with SHA-256 ${sha256}, where the message names ${media.size} bytes with SHA-256 ${media.sha256}`,
			{ code: 'media_damaged' },
		);
	}
	const mimeType = media.mimeType || file.mimeType;
	return {
		...file,
		mimeType,
		fileName: mediaFileName(messageId, media.fileName ?? file.fileName, mimeType),
	};
}
