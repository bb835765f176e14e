/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the sandbox runs in plain Node, never inside n8n */
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { SandboxCore } from '../../core';
import { RESERVED_CODES } from '../../links/short-links';
import { decodeSegment } from '../request-values';
import { HttpError } from '../../errors';
import { sendJson } from '../respond';
import { API_PREFIX } from '../routes';

type PathHandler = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>;

/**
 * Which part of the sandbox a path belongs to: the API (`/api/v1`, `/sandbox/…`), the index at `/`, the web
 * console (`/user/api`, which answers `false` for any other path), or a short link's code (`/{code}`).
 */
export function createDispatcher(parts: {
	core: SandboxCore;
	api: PathHandler;
	console: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>;
	redirect: (req: IncomingMessage, res: ServerResponse, code: string) => void;
}) {
	return async function dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
		const path = url.pathname;
		if (path === API_PREFIX || path.startsWith(`${API_PREFIX}/`) || path.startsWith('/sandbox/')) {
			await parts.api(req, res, url);
			return;
		}
		if (path === '/' || path === '/sandbox') {
			const baseUrl = parts.core.baseUrl;
			sendJson(res, 200, {
				service: 'Multichannel sandbox',
				api: `${baseUrl}${API_PREFIX}`,
				openapi: `${baseUrl}${API_PREFIX}/openapi.json`,
			});
			return;
		}
		if (await parts.console(req, res, url)) return;
		const segments = path.split('/').filter(Boolean);
		if (segments.length === 1 && !RESERVED_CODES.has(segments[0].toLowerCase())) {
			parts.redirect(req, res, decodeSegment(segments[0], 'code'));
			return;
		}
		throw new HttpError(404, 'not_found', `Nothing at ${path}`);
	};
}
