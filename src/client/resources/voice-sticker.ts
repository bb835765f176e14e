/**
 * What the channel takes as a voice note and as a sticker (the contract's 2026-11-25 addition), declared once:
 * the service checks a file against it, the node checks a binary file before sending it, the docs quote it.
 * zod-free and Buffer-free (bytes as a Uint8Array), so that any of them may read it.
 */

/** A voice note is played in the chat: OGG audio with the Opus codec, as phones record them. */
export const VOICE_NOTE = {
	mimeType: 'audio/ogg; codecs=opus',
	extensions: ['ogg', 'opus'],
	/** What to do with other audio, in the refusal. */
	advice:
		'Convert it to OGG/Opus first (for example with ffmpeg: -c:a libopus), or send it as an audio file with Send Media',
} as const;

/** A sticker is a WebP image of at most 500 KiB (an animated one included), as WhatsApp-style channels take. */
export const STICKER = {
	mimeType: 'image/webp',
	extensions: ['webp'],
	maxBytes: 500 * 1024,
	advice:
		'Convert it to WebP first (512×512 pixels is what stickers use), or send it as an image with Send Media',
} as const;

function startsWith(bytes: Uint8Array, offset: number, ascii: string): boolean {
	for (let index = 0; index < ascii.length; index++) {
		if (bytes[offset + index] !== ascii.charCodeAt(index)) return false;
	}
	return true;
}

/** Whether the bytes are an Ogg stream whose first packet is an Opus header (`OggS` … `OpusHead`). */
export function isOggOpus(bytes: Uint8Array): boolean {
	if (!startsWith(bytes, 0, 'OggS') || bytes.length < 28) return false;
	// The first page's header is 27 bytes and its segment table; the first packet follows it.
	const segments = bytes[26];
	return startsWith(bytes, 27 + segments, 'OpusHead');
}

/** Whether the bytes are a WebP image (`RIFF` <size> `WEBP`). */
export function isWebp(bytes: Uint8Array): boolean {
	return startsWith(bytes, 0, 'RIFF') && startsWith(bytes, 8, 'WEBP');
}

/** The main type/subtype of a media type, in lower case: `Audio/OGG; codecs=opus` → `audio/ogg`. */
function essence(mimeType: string | undefined): string {
	return (mimeType ?? '').split(';')[0].trim().toLowerCase();
}

/**
 * Why a file cannot be sent as a voice note, or undefined when it can: its media type (when known) must be
 * audio/ogg (or audio/opus) and its bytes an Ogg/Opus stream.
 */
export function voiceNoteProblem(file: {
	mimeType?: string;
	data: Uint8Array;
}): string | undefined {
	const type = essence(file.mimeType);
	const typeFits =
		type === '' ||
		type === 'audio/ogg' ||
		type === 'audio/opus' ||
		type === 'application/octet-stream';
	if (typeFits && isOggOpus(file.data)) return undefined;
	const what = type === '' ? 'this file' : `this file is ${type}`;
	return `a voice note must be OGG/Opus audio (${VOICE_NOTE.mimeType}), and ${what}${typeFits ? ' without an Opus stream' : ''}. ${VOICE_NOTE.advice}`;
}

/** Why a file cannot be sent as a sticker, or undefined when it can: WebP, at most `STICKER.maxBytes`. */
export function stickerProblem(file: { mimeType?: string; data: Uint8Array }): string | undefined {
	const type = essence(file.mimeType);
	const typeFits = type === '' || type === 'image/webp' || type === 'application/octet-stream';
	if (!typeFits || !isWebp(file.data)) {
		return `a sticker must be a WebP image (${STICKER.mimeType}), and ${type === '' ? 'this file is not one' : `this file is ${type}`}. ${STICKER.advice}`;
	}
	if (file.data.length > STICKER.maxBytes) {
		return `a sticker may be at most ${STICKER.maxBytes / 1024} KiB, and this one is ${Math.ceil(file.data.length / 1024)} KiB. Make it smaller (512×512 pixels, fewer frames)`;
	}
	return undefined;
}
