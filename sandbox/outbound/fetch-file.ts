import { request } from 'undici';

import type { MediaFile } from '../files/media';
import type { OutboundPurpose } from './outbound';
import { isRefusedTarget, urlProblem } from './policy';

/**
 * Fetches a file sent by URL under the outbound policy: each redirect is followed by hand (a few at most),
 * and each hop's URL is checked before its agent checks the address it connects to.
 */

/** How long the sandbox waits for a file at a URL. */
const FETCH_TIMEOUT_MS = 10_000;
const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export type FetchedFile =
	| { file: MediaFile }
	/** The policy refused a hop: a URL, or the address a name resolved to. */
	| { refused: string }
	/**
	 * No file, and why in words: an error status, too large, too many redirects, or no HTTP answer (one phrase
	 * whatever the cause, so that it tells no open port from a closed one).
	 */
	| { failed: string };

export async function fetchFile(
	url: string,
	maxBytes: number,
	outbound: OutboundPurpose,
): Promise<FetchedFile> {
	const signal = AbortSignal.timeout(FETCH_TIMEOUT_MS);
	let current = url;
	for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
		const problem = urlProblem(current, outbound.policy);
		if (problem) return { refused: `${hop === 0 ? 'The URL' : 'A redirect'} ${problem}` };
		try {
			const response = await request(current, {
				method: 'GET',
				dispatcher: outbound.agent,
				signal,
				headers: { 'user-agent': 'Multichannel-Sandbox-Media/1.0' },
			});
			const location = response.headers.location;
			if (REDIRECTS.has(response.statusCode) && typeof location === 'string') {
				await response.body.dump();
				current = new URL(location, current).href;
				continue;
			}
			if (response.statusCode !== 200) {
				await response.body.dump();
				return { failed: `the URL answered HTTP ${response.statusCode}` };
			}
			const data = await readAtMost(response.body, maxBytes);
			if (!data) return { failed: `the file is larger than ${maxBytes / 1_048_576} MiB` };
			const type = response.headers['content-type'];
			return {
				file: {
					data,
					mimeType: (Array.isArray(type) ? type[0] : type) ?? 'application/octet-stream',
					fileName: null,
				},
			};
		} catch (error) {
			if (isRefusedTarget(error)) {
				return { refused: `${error.message}, which the service does not fetch from` };
			}
			return { failed: 'no HTTP answer from the URL' };
		}
	}
	return { failed: `more than ${MAX_REDIRECTS} redirects` };
}

/** The whole body, or undefined (and the body dropped) once it grows past `maxBytes`. */
async function readAtMost(
	body: AsyncIterable<Buffer> & { destroy(): void },
	maxBytes: number,
): Promise<Buffer | undefined> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of body) {
		size += chunk.length;
		if (size > maxBytes) {
			body.destroy();
			return undefined;
		}
		chunks.push(chunk);
	}
	return Buffer.concat(chunks);
}
