/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the sandbox runs in plain Node, never inside n8n */
import type { IncomingMessage } from 'node:http';

import { HttpError } from '../../errors';

/** Reading request bodies, for the API and the console alike: a size limit, then JSON. */

/**
 * Past the limit, this much more is still read and dropped, so that the 413 reaches a client that sends
 * its whole body before it reads the answer (curl does); beyond it the answer goes out at once and the
 * connection is closed after it.
 */
const DRAIN_FACTOR = 4;

/**
 * Reads the whole body; past `limit` bytes it keeps nothing and answers 413 once the body has ended (or at
 * once when the body declares its length, or goes on far past the limit). A client that goes away while
 * sending gets a 400, which it will never see. Never leaves the request half-destroyed.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
	const declared = Number(req.headers['content-length']);
	if (Number.isFinite(declared) && declared > limit) return Promise.reject(tooLarge(limit));
	if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
	return new Promise<Buffer>((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		const settle = (outcome: () => void) => {
			req.off('data', onData);
			req.off('end', onEnd);
			req.off('error', onError);
			req.off('aborted', onAborted);
			outcome();
		};
		const onData = (chunk: Buffer) => {
			size += chunk.length;
			if (size <= limit) chunks.push(chunk);
			else {
				chunks.length = 0;
				if (size > limit * DRAIN_FACTOR) {
					settle(() => reject(tooLarge(limit)));
					// Whatever else arrives is dropped until the connection closes after the answer.
					req.resume();
				}
			}
		};
		const onEnd = () =>
			settle(() => (size > limit ? reject(tooLarge(limit)) : resolve(Buffer.concat(chunks))));
		const onError = () => settle(() => reject(aborted()));
		const onAborted = () => settle(() => reject(aborted()));
		req.on('data', onData);
		req.on('end', onEnd);
		req.on('error', onError);
		req.on('aborted', onAborted);
	});
}

function tooLarge(limit: number) {
	return new HttpError(413, 'payload_too_large', `The request body is larger than ${limit} bytes`);
}

function aborted() {
	return new HttpError(400, 'request_aborted', 'The client went away while sending the body');
}

export function parseJson(raw: Buffer): unknown {
	try {
		return JSON.parse(raw.toString('utf8'));
	} catch {
		return invalidJson();
	}
}

function invalidJson(): never {
	throw new HttpError(400, 'invalid_json', 'The request body is not valid JSON');
}
