import { randomBytes } from 'crypto';

export interface UploadFile {
	data: Buffer;
	fileName: string;
	mimeType: string;
}

/**
 * Encodes a multipart/form-data body ourselves, so both transports send the exact same bytes and a retry
 * can resend them (a stream could be sent only once).
 */
export function encodeMultipart(
	fields: Record<string, unknown>,
	file: UploadFile,
): { body: Buffer; contentType: string } {
	const boundary = `----multichannel${randomBytes(12).toString('hex')}`;
	const parts: Buffer[] = [];
	for (const [name, value] of Object.entries(fields)) {
		if (value === undefined) continue;
		const text = typeof value === 'string' ? value : JSON.stringify(value);
		parts.push(
			Buffer.from(
				`--${boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"\r\n\r\n${text}\r\n`,
			),
		);
	}
	parts.push(
		Buffer.from(
			`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quote(file.fileName)}"\r\n` +
				`Content-Type: ${file.mimeType}\r\n\r\n`,
		),
		file.data,
		Buffer.from(`\r\n--${boundary}--\r\n`),
	);
	return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

function quote(value: string): string {
	return value.replace(/["\r\n\\]/g, (char) => encodeURIComponent(char));
}
