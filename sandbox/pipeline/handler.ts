/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the sandbox runs in plain Node, never inside n8n */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { errorBody, HttpError, sendJson } from '../http';
import { newId } from '../store';

/**
 * The server's request listener: gives each request an id (`X-Request-Id`) and turns whatever the
 * dispatcher throws into the contract's error body (an unexpected error is logged and answered 500).
 */
export function createRequestHandler(
	dispatch: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
	log: (message: string) => void,
) {
	return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const requestId = newId('req');
		res.setHeader('X-Request-Id', requestId);
		let failure: unknown;
		try {
			await dispatch(req, res);
		} catch (error) {
			failure = error;
		}
		if (failure === undefined) return;
		if (res.headersSent || req.socket.destroyed) {
			res.destroy();
			return;
		}
		let error: HttpError;
		if (failure instanceof HttpError) {
			error = failure;
		} else {
			log(
				`sandbox: ${req.method} ${req.url} failed: ${(failure as Error)?.stack ?? String(failure)}`,
			);
			error = new HttpError(500, 'internal_error', 'The sandbox failed to answer; see its log');
		}
		// A body that was not read to the end (413) would otherwise stall the connection.
		if (error.status === 413) res.setHeader('Connection', 'close');
		sendJson(res, error.status, errorBody(error, requestId), error.headers);
	};
}
