import type { MessageView } from '../views';
import { el } from './dom';
import { callApi } from './session';

/**
 * The files the chat plays or shows in place: a voice note's audio and a sticker's image. Their bytes come from
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

/** A sticker: its image, without a bubble around it. */
export function stickerImage(message: MessageView): HTMLElement {
	const image = el('img', { className: 'sticker-image', alt: 'Sticker', title: 'Sticker' });
	urlOf(message.id).then(
		(url) => {
			image.src = url;
			image.dataset.loaded = 'true';
		},
		() => (image.alt = 'Sticker (its file could not be read)'),
	);
	return image;
}
