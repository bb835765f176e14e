/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the sandbox runs in plain Node, never inside n8n */
import type { Duplex } from 'node:stream';

import { errorBody, HttpError } from '../../errors';
import { newId } from '../../store/store';

/**
 * A request Node's HTTP parser refuses before any listener sees it (bytes a header may not hold, a broken
 * request line, headers too large): answered in the contract's error shape, as every other refusal, instead of
 * Node's bare `400 Bad Request` with no body. The connection is closed after: the parser cannot go on with it.
 */

/** Node's `clientError` codes with a status of their own; every other parse error is a 400. */
const STATUSES: Record<string, [number, string, string]> = {
	HPE_HEADER_OVERFLOW: [
		431,
		'Request Header Fields Too Large',
		'The request headers are too large',
	],
	ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'The request was not received in time'],
};

export function answerClientError(failure: Error & { code?: string }, socket: Duplex): void {
	// A connection reset or already answered: there is no one to tell.
	if (failure.code === 'ECONNRESET' || !socket.writable) {
		socket.destroy();
		return;
	}
	const [status, reason, message] = STATUSES[failure.code ?? ''] ?? [
		400,
		'Bad Request',
		'The request is not valid HTTP: its request line or a header is malformed (for instance, bytes a header may not hold)',
	];
	const requestId = newId('req');
	const body = JSON.stringify(
		errorBody(new HttpError(status, 'malformed_request', message), requestId),
	);
	socket.end(
		[
			`HTTP/1.1 ${status} ${reason}`,
			'Content-Type: application/json; charset=utf-8',
			`Content-Length: ${Buffer.byteLength(body)}`,
			`X-Request-Id: ${requestId}`,
			'Connection: close',
			'',
			body,
		].join('\r\n'),
	);
}
