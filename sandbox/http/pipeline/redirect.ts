/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the sandbox runs in plain Node, never inside n8n */
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { SandboxCore } from '../../core';
import { followLink } from '../../links/short-links';
import { HttpError } from '../../errors';
import type { Persistence } from '../../store/persistence';

/** The public short URL `GET /{code}`: 302 to the destination, and the click recorded (not for `HEAD`). */
export function handleRedirect(
	core: SandboxCore,
	persistence: Persistence,
	req: IncomingMessage,
	res: ServerResponse,
	code: string,
): void {
	if (req.method !== 'GET' && req.method !== 'HEAD') {
		throw new HttpError(405, 'method_not_allowed', 'A short link is opened with GET', [], {
			Allow: 'GET, HEAD',
		});
	}
	const header = (name: string) => {
		const value = req.headers[name];
		return Array.isArray(value) ? value[0] : value;
	};
	const location = followLink(
		core,
		code,
		{
			userAgent: header('user-agent'),
			referrer: header('referer'),
			country: header('cf-ipcountry'),
		},
		req.method === 'GET',
	);
	persistence.saveIfChanged();
	res.writeHead(302, { Location: location, 'Cache-Control': 'private, no-store' });
	res.end();
}
