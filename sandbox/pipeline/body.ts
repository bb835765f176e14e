/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the sandbox runs in plain Node, never inside n8n */
import type { IncomingMessage } from 'node:http';

import { HttpError } from '../http';

/** Reading request bodies, for the API and the console alike: a size limit, then JSON. */

/** Reads the whole body; past `limit` bytes it stops reading and answers 413. */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
	const declared = Number(req.headers['content-length']);
	if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of req) {
		size += (chunk as Buffer).length;
		if (size > limit) throw tooLarge(limit);
		chunks.push(chunk as Buffer);
	}
	return Buffer.concat(chunks);
}

function tooLarge(limit: number) {
	return new HttpError(413, 'payload_too_large', `The request body is larger than ${limit} bytes`);
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
