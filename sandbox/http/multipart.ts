import { HttpError } from '../errors';

/** multipart/form-data bodies (media uploads): text fields and files. */

export interface UploadedFile {
	fieldName: string;
	fileName: string;
	mimeType: string;
	data: Buffer;
}

export interface Multipart {
	fields: Record<string, string>;
	files: UploadedFile[];
}

/**
 * Parses multipart/form-data (RFC 7578): text fields, and as files the parts with a filename and those named in
 * `fileFields`. RFC 7578 makes the filename optional (and the contract's schema does not ask for one), so a
 * `file` part without one is still the file, named for its field.
 */
export function parseMultipart(
	body: Buffer,
	contentType: string,
	fileFields: readonly string[] = ['file'],
): Multipart {
	const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
	if (!boundary)
		throw new HttpError(400, 'invalid_multipart', 'The multipart body has no boundary');
	const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
	const result: Multipart = { fields: {}, files: [] };

	let position = body.indexOf(delimiter);
	if (position < 0)
		throw new HttpError(400, 'invalid_multipart', 'The multipart body has no parts');
	for (;;) {
		position += delimiter.length;
		// `--` right after a delimiter closes the body.
		if (body.subarray(position, position + 2).toString() === '--') return result;
		position += 2; // the CRLF after the delimiter
		const next = body.indexOf(delimiter, position);
		if (next < 0)
			throw new HttpError(400, 'invalid_multipart', 'The multipart body is not terminated');
		const part = body.subarray(position, next - 2); // without the CRLF before the next delimiter
		const headerEnd = part.indexOf('\r\n\r\n');
		if (headerEnd < 0)
			throw new HttpError(400, 'invalid_multipart', 'A multipart part has no headers');
		const headers = part.subarray(0, headerEnd).toString('utf8');
		const content = part.subarray(headerEnd + 4);
		const disposition = /content-disposition:[^\r\n]*/i.exec(headers)?.[0] ?? '';
		const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
		const fileName = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
		if (name === undefined)
			throw new HttpError(400, 'invalid_multipart', 'A multipart part has no name');
		if (fileName !== undefined || fileFields.includes(decodeQuoted(name))) {
			const mimeType =
				/content-type:\s*([^\r\n;]+)/i.exec(headers)?.[1]?.trim() ?? 'application/octet-stream';
			result.files.push({
				fieldName: decodeQuoted(name),
				fileName: decodeQuoted(fileName ?? name),
				mimeType,
				data: content,
			});
		} else {
			result.fields[decodeQuoted(name)] = content.toString('utf8');
		}
		position = next;
	}
}

/** The client percent-encodes `"`, CR, LF and `\` in names (see src/client/multipart.ts). */
function decodeQuoted(value: string): string {
	return value.replace(/%(22|0D|0A|5C)/gi, (encoded) => decodeURIComponent(encoded));
}
