import {
	STICKER,
	stickerProblem,
	VOICE_NOTE,
	voiceNoteProblem,
} from '../../../../src/client/resources/voice-sticker';
import type { FileKind } from './fileSend';

/**
 * Send Voice Note and Send Sticker as file sends: the media type is fixed, and a file that cannot be one is
 * refused before any request, with the reason and what to do (the rules: src/client/resources/voice-sticker.ts).
 * A URL is judged by its extension when it has a known one; its bytes only the service sees.
 */

/** The extension at the end of a name or a URL's path, in lower case, or '' when it has none. */
function extensionOf(name: string): string {
	return /\.([a-z0-9]+)(?:$|[?#])/i.exec(name)?.[1]?.toLowerCase() ?? '';
}

/** Extensions of files that are certainly not of this kind (anything else is left to the service). */
const OTHER_AUDIO = ['mp3', 'm4a', 'aac', 'wav', 'flac', 'amr', 'mp4', 'webm'];
const OTHER_IMAGES = ['png', 'jpg', 'jpeg', 'gif', 'bmp', 'svg', 'heic', 'tiff'];

function byExtension(
	name: string,
	others: string[],
	what: string,
	advice: string,
): string | undefined {
	const extension = extensionOf(name);
	if (!others.includes(extension)) return undefined;
	return `${what}, and this file is .${extension}. ${advice}`;
}

export const voiceNote: FileKind = {
	mediaType: () => 'voice',
	problem: ({ mimeType, name, data }) =>
		data
			? voiceNoteProblem({ mimeType, data })
			: byExtension(
					name,
					OTHER_AUDIO,
					`a voice note must be OGG/Opus audio (.${VOICE_NOTE.extensions.join(' or .')})`,
					VOICE_NOTE.advice,
				),
};

export const sticker: FileKind = {
	mediaType: () => 'sticker',
	problem: ({ mimeType, name, data }) =>
		data
			? stickerProblem({ mimeType, data })
			: byExtension(
					name,
					OTHER_IMAGES,
					`a sticker must be a WebP image (.${STICKER.extensions[0]})`,
					STICKER.advice,
				),
};
