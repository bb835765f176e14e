/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the sandbox runs in plain Node, never inside n8n */
import type { ServerResponse } from 'node:http';

/** Answers as they go on the wire: JSON, or a file. */

export function sendJson(
	res: ServerResponse,
	status: number,
	body: unknown,
	headers: Record<string, string> = {},
): void {
	sendJsonText(res, status, body === undefined ? undefined : JSON.stringify(body), headers);
}

/** An answer already serialised (undefined: no body). */
export function sendJsonText(
	res: ServerResponse,
	status: number,
	text: string | undefined,
	headers: Record<string, string> = {},
): void {
	for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
	if (text === undefined) {
		res.writeHead(status);
		res.end();
		return;
	}
	res.writeHead(status, {
		'Content-Type': 'application/json; charset=utf-8',
		'Content-Length': Buffer.byteLength(text),
	});
	res.end(text);
}

/**
 * A file as the answer: its bytes with Content-Type, Content-Length and a Content-Disposition naming the file
 * (`filename` in ASCII, `filename*` in UTF-8, RFC 6266).
 */
export function sendFile(
	res: ServerResponse,
	status: number,
	file: { data: Buffer; mimeType: string; fileName: string | null },
): void {
	const headers: Record<string, string | number> = {
		'Content-Type': file.mimeType,
		'Content-Length': file.data.length,
	};
	if (file.fileName) {
		const ascii = file.fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
		headers['Content-Disposition'] =
			`attachment; filename="${ascii}"; filename*=UTF-8''${encodeRfc5987(file.fileName)}`;
	} else {
		headers['Content-Disposition'] = 'attachment';
	}
	res.writeHead(status, headers);
	res.end(file.data);
}

/** Percent-encoding as RFC 5987 wants it: `encodeURIComponent` leaves `'()*` as they are. */
function encodeRfc5987(value: string): string {
	return encodeURIComponent(value).replace(
		/['()*]/g,
		(char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
	);
}
