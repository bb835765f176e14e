import {
	STICKER,
	stickerProblem,
	voiceNoteProblem,
} from '../../src/client/resources/voice-sticker';
import { HttpError } from '../errors';

/**
 * Voice notes and stickers, as the sandbox takes them: it refuses (it does not convert) audio that is not
 * OGG/Opus and images that are not WebP, saying why and what to do (the rules: src/client/resources/voice-sticker.ts).
 */

/** Why this file cannot go as this kind of media, or undefined (every kind but voice and sticker takes any file). */
export function mediaKindProblem(
	mediaType: string,
	file: { mimeType?: string; data: Uint8Array },
): string | undefined {
	if (mediaType === 'voice') return voiceNoteProblem(file);
	if (mediaType === 'sticker') return stickerProblem(file);
	return undefined;
}

/** An uploaded file that does not fit its kind: 413 for a sticker too large, 400 naming the file otherwise. */
export function requireFileFitsKind(
	mediaType: string,
	file: { mimeType?: string; data: Uint8Array },
): void {
	const problem = mediaKindProblem(mediaType, file);
	if (problem === undefined) return;
	const code = mediaType === 'voice' ? 'not_a_voice_note' : 'not_a_sticker';
	if (mediaType === 'sticker' && file.data.length > STICKER.maxBytes) {
		throw new HttpError(413, 'sticker_too_large', `The file is refused: ${problem}`, [
			{ field: 'file', message: problem },
		]);
	}
	throw new HttpError(400, code, `The file is refused: ${problem}`, [
		{ field: 'file', message: problem },
	]);
}

/** A send by URL whose stated media type cannot be its kind is refused before anything is fetched. */
export function requireTypeFitsKind(mediaType: string, mimeType: string | undefined): void {
	if (mimeType === undefined || (mediaType !== 'voice' && mediaType !== 'sticker')) return;
	const essence = mimeType.split(';')[0].trim().toLowerCase();
	const fits =
		mediaType === 'voice'
			? essence === 'audio/ogg' || essence === 'audio/opus'
			: essence === 'image/webp';
	if (fits) return;
	// The bytes are not known yet: the problem as the rule words it for a file of this type.
	const problem = mediaKindProblem(mediaType, { mimeType, data: new Uint8Array() }) as string;
	const code = mediaType === 'voice' ? 'not_a_voice_note' : 'not_a_sticker';
	throw new HttpError(400, code, `The file is refused: ${problem}`, [
		{ field: 'body.mimeType', message: problem },
	]);
}
