/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the sandbox runs in plain Node, never inside n8n */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { errorBody, HttpError } from '../../errors';
import { sendJson } from '../respond';
import { newId } from '../../store/store';

/**
 * The server's request listener: gives each request an id (`X-Request-Id`) and the sandbox's time (`Date`, from
 * its clock, which tests may move: the node reads a message's age against it), and turns whatever the
 * dispatcher throws into the contract's error body (an unexpected error is logged and answered 500). It
 * never rejects: no request, of any shape, can end the process.
 */
export function createRequestHandler(
	dispatch: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
	log: (message: string) => void,
	now: () => number = Date.now,
) {
	const report = (req: IncomingMessage, failure: unknown) =>
		log(
			`sandbox: ${req.method} ${req.url} failed: ${(failure as Error)?.stack ?? String(failure)}`,
		);

	async function answerFailure(
		req: IncomingMessage,
		res: ServerResponse,
		failure: unknown,
		requestId: string,
	): Promise<void> {
		// Nothing more can be said on a connection that is gone or an answer already under way.
		if (res.headersSent || res.destroyed || !req.socket || req.socket.destroyed) {
			res.destroy();
			return;
		}
		let error: HttpError;
		if (failure instanceof HttpError) {
			error = failure;
		} else {
			report(req, failure);
			error = new HttpError(500, 'internal_error', 'The sandbox failed to answer; see its log');
		}
		// A body that was not read to the end (413) would otherwise stall the connection.
		if (error.status === 413) res.setHeader('Connection', 'close');
		sendJson(res, error.status, errorBody(error, requestId), error.headers);
	}

	return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const requestId = newId('req');
		try {
			res.setHeader('X-Request-Id', requestId);
			res.setHeader('Date', new Date(now()).toUTCString());
			await dispatch(req, res);
		} catch (failure) {
			try {
				await answerFailure(req, res, failure, requestId);
			} catch (secondFailure) {
				// Answering the failure failed too (a header that cannot be sent...): a plain 500, or nothing.
				report(req, secondFailure);
				answerPlain500(res, requestId);
			}
		}
	};
}

function answerPlain500(res: ServerResponse, requestId: string): void {
	try {
		if (res.headersSent || res.destroyed) {
			res.destroy();
			return;
		}
		for (const name of res.getHeaderNames()) res.removeHeader(name);
		const error = new HttpError(500, 'internal_error', 'The sandbox failed to answer; see its log');
		sendJson(res, 500, errorBody(error, requestId), { 'X-Request-Id': requestId });
	} catch {
		res.destroy();
	}
}
