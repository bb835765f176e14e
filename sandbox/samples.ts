/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the sandbox runs in plain Node, never inside n8n */
import { deflateSync } from 'node:zlib';

import type { MediaFile } from './media';

/**
 * The sample files an injected inbound message may carry, made here rather than kept as binary fixtures:
 * a PNG image, a one-second Ogg/Opus voice note (silence, as a phone records it), a one-page PDF and a WebP sticker. Each is a
 * small valid file of its format, and the same bytes every time.
 */

export const SAMPLE_NAMES = ['image', 'voice', 'pdf', 'sticker'] as const;
export type SampleName = (typeof SAMPLE_NAMES)[number];

export function sampleFile(name: SampleName): MediaFile {
	switch (name) {
		case 'image':
			return { data: png(), mimeType: 'image/png', fileName: 'sample-image.png' };
		case 'voice':
			return { data: oggOpus(), mimeType: 'audio/ogg; codecs=opus', fileName: 'voice-note.ogg' };
		case 'pdf':
			return { data: pdf(), mimeType: 'application/pdf', fileName: 'sample-document.pdf' };
		case 'sticker':
			return {
				data: Buffer.from(WEBP_STICKER, 'base64'),
				mimeType: 'image/webp',
				fileName: 'sticker.webp',
			};
	}
}

/** A sticker: the smallest lossless WebP (1×1, white), as browsers' WebP support checks use it. */
const WEBP_STICKER = 'UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==';

// ---------------------------------------------------------------------------------------------------------
// PNG: 64×64, RGB, a diagonal gradient

const CRC32_TABLE = Array.from({ length: 256 }, (_, n) => {
	let c = n;
	for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
	return c >>> 0;
});

function crc32(data: Buffer): number {
	let crc = 0xffffffff;
	for (const byte of data) crc = CRC32_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
	return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
	const head = Buffer.alloc(8);
	head.writeUInt32BE(data.length, 0);
	head.write(type, 4, 'latin1');
	const crc = Buffer.alloc(4);
	crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
	return Buffer.concat([head, data, crc]);
}

function png(size = 64): Buffer {
	const header = Buffer.alloc(13);
	header.writeUInt32BE(size, 0);
	header.writeUInt32BE(size, 4);
	header.set([8, 2, 0, 0, 0], 8); // 8 bits, truecolour, deflate, no filter method, no interlace
	const rows: number[] = [];
	for (let y = 0; y < size; y++) {
		rows.push(0); // filter: none
		for (let x = 0; x < size; x++) rows.push(x * 4, y * 4, 255 - (x + y) * 2);
	}
	return Buffer.concat([
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		pngChunk('IHDR', header),
		pngChunk('IDAT', deflateSync(Buffer.from(rows))),
		pngChunk('IEND', Buffer.alloc(0)),
	]);
}

// ---------------------------------------------------------------------------------------------------------
// Ogg/Opus (RFC 7845): identification and comment headers, then 50 frames of 20 ms of silence

const OGG_CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
	let c = n << 24;
	for (let k = 0; k < 8; k++) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1;
	return c >>> 0;
});

function oggCrc(data: Buffer): number {
	let crc = 0;
	for (const byte of data) crc = ((crc << 8) ^ OGG_CRC_TABLE[((crc >>> 24) ^ byte) & 0xff]) >>> 0;
	return crc;
}

/** One page holding whole packets (each under 255 × 255 bytes). */
function oggPage(packets: Buffer[], sequence: number, granule: number, flags: number): Buffer {
	const lacing: number[] = [];
	for (const packet of packets) {
		let left = packet.length;
		while (left >= 255) {
			lacing.push(255);
			left -= 255;
		}
		lacing.push(left);
	}
	const header = Buffer.alloc(27);
	header.write('OggS', 0, 'latin1');
	header[5] = flags;
	header.writeBigUInt64LE(BigInt(granule), 6);
	header.writeUInt32LE(0x4d43, 14); // stream serial number
	header.writeUInt32LE(sequence, 18);
	header[26] = lacing.length;
	const page = Buffer.concat([header, Buffer.from(lacing), ...packets]);
	page.writeUInt32LE(oggCrc(page), 22);
	return page;
}

function oggOpus(frames = 50): Buffer {
	const head = Buffer.alloc(19);
	head.write('OpusHead', 0, 'latin1');
	head[8] = 1; // version
	head[9] = 1; // mono
	head.writeUInt16LE(312, 10); // pre-skip
	head.writeUInt32LE(48_000, 12); // input sample rate
	const vendor = Buffer.from('multichannel sandbox', 'utf8');
	const tags = Buffer.alloc(8 + 4 + vendor.length + 4);
	tags.write('OpusTags', 0, 'latin1');
	tags.writeUInt32LE(vendor.length, 8);
	vendor.copy(tags, 12);
	// A CELT frame of 20 ms that decodes to silence.
	const silence = Buffer.from([0xf8, 0xff, 0xfe]);
	return Buffer.concat([
		oggPage([head], 0, 0, 0x02),
		oggPage([tags], 1, 0, 0),
		oggPage(Array<Buffer>(frames).fill(silence), 2, frames * 960, 0x04),
	]);
}

// ---------------------------------------------------------------------------------------------------------
// PDF 1.4: one A4 page with a line of text

function pdf(): Buffer {
	const text = 'Multichannel sandbox: a sample document';
	const stream = `BT /F1 18 Tf 72 770 Td (${text}) Tj ET`;
	const objects = [
		'<< /Type /Catalog /Pages 2 0 R >>',
		'<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
		'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
		`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
		'<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
	];
	let body = '%PDF-1.4\n';
	const offsets: number[] = [];
	objects.forEach((object, index) => {
		offsets.push(body.length);
		body += `${index + 1} 0 obj\n${object}\nendobj\n`;
	});
	const xref = body.length;
	body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
	for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
	body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
	return Buffer.from(body, 'latin1');
}
