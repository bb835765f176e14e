import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

import { api } from '../../src/client/api';
import { API_PREFIX } from '../../src/client/operation';

/**
 * Short-lived URLs signed for the file of one message (`media.downloadUrl` in a delivered event), so that a
 * receiver fetches a file it was sent without an API key (`downloadSignedMedia`). Each delivery attempt gets a
 * fresh URL, valid `ttlMs`: a redelivery hours later still carries one that works.
 *
 * The token is `<messageId>.<expires, unix seconds>.<hex HMAC-SHA256>`, the HMAC over the workspace, the
 * message and the expiry with a key this process drew at start. Files are kept in memory only, so after a
 * restart a URL has nothing to answer either: a key kept across restarts would buy nothing.
 */

export const SIGNED_MEDIA_TTL_MS = 15 * 60 * 1000;
const PATH_PREFIX = `${API_PREFIX}${api.workspace.messages.downloadSignedMedia.path.replace('{token}', '')}`;

/** The message and workspace a valid token is for; or why it is refused. */
export type SignedMediaCheck =
	| { valid: true; workspaceId: string; messageId: string }
	| { valid: false; reason: 'invalid' | 'expired' };

const TOKEN = /^(.+)\.(\d{1,12})\.([0-9a-f]{64})$/;

/**
 * The message a token names, read without checking it: for the download's handler, which runs only once the
 * pipeline checked the token (sandbox/http/pipeline/signed.ts).
 */
export function messageIdOfToken(token: string): string | undefined {
	return TOKEN.exec(token)?.[1];
}

/** A message with its file: `media`, with the message id beside it. */
interface MessageData {
	id?: unknown;
	media?: { id?: unknown; [key: string]: unknown } | null;
}

/** Where a payload's media is: a delivered event's `data.media`, or that of each of its `data.messages`. */
interface MessageEvent {
	data?: MessageData & { messages?: Array<MessageData | null> };
	workspaceId?: unknown;
}

export class SignedMediaUrls {
	private readonly key = randomBytes(32);

	constructor(
		/** The service's public base URL (known once it listens). */
		private readonly baseUrl: () => string,
		private readonly nowMs: () => number,
		/** How long a URL works (tests shorten it). */
		public ttlMs = SIGNED_MEDIA_TTL_MS,
	) {}

	private mac(workspaceId: string, messageId: string, expires: number): Buffer {
		return createHmac('sha256', this.key)
			.update(`signed-media\n${workspaceId}\n${messageId}\n${expires}`)
			.digest();
	}

	/** A URL for the file of `messageId`, and when it stops working. */
	urlFor(workspaceId: string, messageId: string): { url: string; expiresAt: string } {
		const expires = Math.floor((this.nowMs() + this.ttlMs) / 1000);
		const token = `${messageId}.${expires}.${this.mac(workspaceId, messageId, expires).toString('hex')}`;
		return {
			url: `${this.baseUrl()}${PATH_PREFIX}${encodeURIComponent(token)}`,
			expiresAt: new Date(expires * 1000).toISOString(),
		};
	}

	/**
	 * Checks a token against the workspace of the message it names (`workspaceOf`, undefined for an unknown
	 * message): an unknown message reads like a bad signature, so the answer says nothing about which exist.
	 */
	check(token: string, workspaceOf: (messageId: string) => string | undefined): SignedMediaCheck {
		const match = TOKEN.exec(token);
		if (!match) return { valid: false, reason: 'invalid' };
		const [, messageId, expiresText, signature] = match;
		const workspaceId = workspaceOf(messageId);
		if (workspaceId === undefined) return { valid: false, reason: 'invalid' };
		const expires = Number(expiresText);
		const expected = this.mac(workspaceId, messageId, expires);
		if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) {
			return { valid: false, reason: 'invalid' };
		}
		if (expires * 1000 <= this.nowMs()) return { valid: false, reason: 'expired' };
		return { valid: true, workspaceId, messageId };
	}

	/**
	 * The payload of one delivery attempt: an event about a message with a file gets that file's URL, and so does
	 * each message of a gathered event (`data.messages`). Anything else (and anything that does not parse, which
	 * the sandbox never makes) goes out as it is.
	 */
	stamp(payload: string): string {
		if (!payload.includes('"media"')) return payload;
		let event: MessageEvent;
		try {
			event = JSON.parse(payload) as MessageEvent;
		} catch {
			return payload;
		}
		const { data, workspaceId } = event;
		if (typeof workspaceId !== 'string' || !data) return payload;
		const messages = Array.isArray(data.messages) ? data.messages : [data];
		let stamped = false;
		for (const message of messages) stamped = this.stampMessage(workspaceId, message) || stamped;
		return stamped ? JSON.stringify(event) : payload;
	}

	private stampMessage(workspaceId: string, message: MessageData | null): boolean {
		const media = message?.media;
		if (!media || typeof media.id !== 'string' || typeof message?.id !== 'string') return false;
		const { url, expiresAt } = this.urlFor(workspaceId, message.id);
		media.downloadUrl = url;
		media.downloadUrlExpiresAt = expiresAt;
		return true;
	}
}
