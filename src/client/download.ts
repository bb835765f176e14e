import type { HttpResponse } from './transport';

/** A file the service answered with (an operation described `binary: true`), read from a 2xx answer. */
export interface DownloadedFile {
	data: Buffer;
	/** From `Content-Type`; `application/octet-stream` when the service named none. */
	mimeType: string;
	/** From `Content-Disposition` (`filename*` first), when the service named one. */
	fileName?: string;
	size: number;
}

/**
 * The file of an answer. Lenient towards a real server: a missing `Content-Type` or file name is no error,
 * and a transport that handed over text instead of bytes still gives the bytes it got.
 */
export function fileFromResponse(response: HttpResponse): DownloadedFile {
	const { body, headers } = response;
	const data = Buffer.isBuffer(body)
		? body
		: typeof body === 'string'
			? Buffer.from(body, 'utf8')
			: body instanceof Uint8Array
				? Buffer.from(body)
				: body === undefined
					? Buffer.alloc(0)
					: Buffer.from(JSON.stringify(body), 'utf8');
	const mimeType = headers['content-type']?.trim() || 'application/octet-stream';
	const fileName = fileNameOf(headers['content-disposition']);
	return { data, mimeType, ...(fileName ? { fileName } : {}), size: data.length };
}

/** `filename*=UTF-8''…` (RFC 6266/5987) when present, else `filename="…"` or a bare token. */
export function fileNameOf(disposition: string | undefined): string | undefined {
	if (!disposition) return undefined;
	const extended = /filename\*\s*=\s*([\w-]+)'[^']*'([^;]+)/i.exec(disposition);
	if (extended) {
		try {
			return basename(decodeURIComponent(extended[2].trim()));
		} catch {
			// A broken encoding: fall back to the plain parameter.
		}
	}
	const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i.exec(disposition);
	const value = plain?.[1]?.replace(/\\(.)/g, '$1') ?? plain?.[2];
	return value ? basename(value) : undefined;
}

/** Never a path: a name like `../../x` from a server keeps only its last part. */
function basename(name: string): string | undefined {
	const last = name.split(/[/\\]/).pop()?.trim();
	return last && last !== '.' && last !== '..' ? last : undefined;
}
