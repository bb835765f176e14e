import { createHash } from 'node:crypto';

import type { MessageMedia } from '../../src/client/resources/message-media';
import { MimeType } from '../../src/client/schemas';
import { safeFileName } from './file-names';
import { newId } from '../store/store';

/**
 * The bytes of media messages, sent or received, kept in memory within fixed bounds: a largest file, a total
 * for all files (the oldest go first past it) and an age (files older are dropped). A message keeps its
 * `media` description (saved with the state); once its bytes are gone, a download answers 410. Bytes are not
 * written to the data file, so after a restart every earlier file is gone as well.
 */

export interface MediaLimits {
	/** The largest file kept; a larger upload is refused (413), a larger file at a URL is not kept. */
	maxFileBytes: number;
	/** All files together; past it the oldest are dropped. */
	maxTotalBytes: number;
	/** How long a file is kept. */
	ttlMs: number;
}

export const DEFAULT_MEDIA_LIMITS: MediaLimits = {
	maxFileBytes: 16 * 1024 * 1024,
	maxTotalBytes: 128 * 1024 * 1024,
	ttlMs: 24 * 60 * 60 * 1000,
};

export interface MediaFile {
	data: Buffer;
	mimeType: string;
	fileName: string | null;
}

interface Kept extends MediaFile {
	workspaceId: string;
	storedAtMs: number;
}

export class MediaStore {
	/** In insertion order, so the first entries are the oldest. */
	private readonly files = new Map<string, Kept>();
	private totalBytes = 0;

	constructor(
		readonly limits: MediaLimits,
		private readonly nowMs: () => number,
	) {}

	/**
	 * Keeps a file and describes it; undefined when it is larger than a file may be. Requests have had their
	 * type and name checked; what a URL answered with is made safe to serve again: a Content-Type that is not
	 * a media type becomes application/octet-stream, a name is cut to its base name (file-names.ts).
	 */
	put(workspaceId: string, received: MediaFile): MessageMedia | undefined {
		if (received.data.length > this.limits.maxFileBytes) return undefined;
		const file: MediaFile = {
			data: received.data,
			mimeType: MimeType.safeParse(received.mimeType).success
				? received.mimeType
				: 'application/octet-stream',
			fileName: safeFileName(received.fileName),
		};
		const id = newId('med');
		this.files.set(id, { ...file, workspaceId, storedAtMs: this.nowMs() });
		this.totalBytes += file.data.length;
		this.prune();
		return describeMedia(id, file);
	}

	/** The file, while it is kept; undefined once it expired or made room for newer ones. */
	get(workspaceId: string, id: string): MediaFile | undefined {
		this.prune();
		const kept = this.files.get(id);
		return kept?.workspaceId === workspaceId ? kept : undefined;
	}

	get size(): { files: number; bytes: number } {
		return { files: this.files.size, bytes: this.totalBytes };
	}

	private prune(): void {
		const oldestKept = this.nowMs() - this.limits.ttlMs;
		for (const [id, kept] of this.files) {
			if (kept.storedAtMs > oldestKept && this.totalBytes <= this.limits.maxTotalBytes) break;
			this.files.delete(id);
			this.totalBytes -= kept.data.length;
		}
	}
}

export function describeMedia(id: string, file: MediaFile): MessageMedia {
	return {
		id,
		mimeType: file.mimeType,
		fileName: file.fileName,
		size: file.data.length,
		sha256: createHash('sha256').update(file.data).digest('hex'),
	};
}

/** How the channel shows a file: from its MIME type. */
export function mediaTypeOf(mimeType: string): 'image' | 'video' | 'audio' | 'document' {
	const main = mimeType.split('/')[0].toLowerCase();
	return main === 'image' || main === 'video' || main === 'audio' ? main : 'document';
}
