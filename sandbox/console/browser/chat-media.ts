import type { MessageView } from '../views';
import { el } from './dom';
import { callApi } from './session';

/**
 * The files the chat plays or shows in place: a voice note's audio, a sticker's and an image's picture. Their bytes come from
 * the API's download (`GET /api/v1/messages/{id}/media`) with the signed-in key, as a media element cannot send
 * one; each file is read once per open chat and kept as an object URL until the chat closes.
 */

const urls = new Map<string, Promise<string>>();

function urlOf(messageId: string): Promise<string> {
	let url = urls.get(messageId);
	if (!url) {
		url = callApi('GET', `/api/v1/messages/${encodeURIComponent(messageId)}/media`).then(
			async (response) => {
				if (!response.ok) throw new Error(`HTTP ${response.status}`);
				return URL.createObjectURL(await response.blob());
			},
		);
		// A failed read is tried again at the next render, not remembered.
		url.catch(() => urls.delete(messageId));
		urls.set(messageId, url);
	}
	return url;
}

/** Forgets the files of the chat that closed. */
export function releaseMedia(): void {
	for (const url of urls.values()) void url.then(URL.revokeObjectURL, () => undefined);
	urls.clear();
}

/** A voice note: a small player of its file. */
export function voicePlayer(message: MessageView): HTMLElement {
	const audio = el('audio', { controls: true, preload: 'metadata', className: 'voice-player' });
	const box = el('div', { className: 'voice' }, [
		el('span', { className: 'voice-label', text: 'Voice note' }),
		audio,
	]);
	urlOf(message.id).then(
		(url) => {
			audio.src = url;
			box.dataset.loaded = 'true';
		},
		(failure: Error) => box.append(el('span', { className: 'failure', text: failure.message })),
	);
	return box;
}

/** A file's image, shown once its bytes are read; its alt text says when they cannot be. */
function imageOf(message: MessageView, className: string, alt: string): HTMLImageElement {
	const image = el('img', { className, alt, title: alt });
	urlOf(message.id).then(
		(url) => {
			image.src = url;
			image.dataset.loaded = 'true';
		},
		() => (image.alt = `${alt} (its file could not be read)`),
	);
	return image;
}

/** A sticker: its image, without a bubble around it. */
export function stickerImage(message: MessageView): HTMLElement {
	return imageOf(message, 'sticker-image', 'Sticker');
}

/** An image message's picture, in its bubble. */
export function pictureOf(message: MessageView): HTMLElement {
	return imageOf(message, 'picture', message.media?.fileName ?? 'Image');
}
