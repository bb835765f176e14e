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

/**
 * A sticker: a 96×96 WebP (lossy, with an alpha channel) of a yellow smiley on a transparent background, drawn
 * once on a browser's canvas and kept here as its bytes: no encoder is needed to make it again.
 */
const WEBP_STICKER = [
	'UklGRtAJAABXRUJQVlA4WAoAAAAQAAAAXwAAXwAAQUxQSOoCAAANkIRt22E3b2wnR6ntNnZqt5Patm3bxs5WOEmtlW27c1jb7Wrm',
	'zPz/V+0iYgLwn9Q/wRSh0+lCTTo4LC8dDofDeuoDHZHNhRgo1JlCdTqdzhh9RsyxUhAnCGFQ17Om0Nwmihc4azED2kYJgtvkfI7q',
	'zQWDVWcaJh3kJGEZGI2b5TvqNAdR84LAbuqilxMvsjatKdhuOCtzLlNeO8G8y+xSnb+wY8wGj61HCM9YqbYBfEat73aJjVYjwasp',
	'a67IgMvs0uDXe8e5WdrNBtcuM1wmadWiLF/AxNuZ2sSOB/e755/TInINCNzbw6aebx4ojNjU/LNquaCx2vi2as0DlULcZHWi6pGB',
	'SbnXVFkFQpeMUKM+KK378bgKi0jBsmHOtQOtsUWznHGdTQxmT/rlRB9QWzZlnRMDycHA1cqKBtATZbMqagaCm+coEigSRCUB0RTV',
	'PPVJQRNQ7Flnr4KmJEEQ5Vwb0pSRJ1cGNAeF35cxEQWjVcZIlckiY/pXZ7TKGKkyWWSKkvfFiyi3HzJ2PVE2yNoM1Nn1f2h28mxy',
	'NgN1dj1RdvJscheruJH09Zbcp5O1SDoMhaJAUr6SrJYk5SqxOqoSdB6K85sSJCoTBYLylZ0tHk6O1aYMy4aRswxOLuqsJ8ac6cyX',
	'GbOJmQin16WUJeXaBed+jV5EyiioWBCcSsixr2pg2DJCBkPV8/snkjEdKk+KF4goOKcW2k6tQMKVmVD9c8aWCAKed4CG0gCRgIbQ',
	'9NTi3dy1hMaZD8ZwNhuaj/WdytXML9ph2vXN3tx8bgsmMxfn6TixtASjl7qtj+LiYncwa20xLoOD3UvA8Je2Vae5MPZr6i2wPSNv',
	'Xl2mDkwA8xfHflwWy8ypYeDy+DDDnMpMXJz8ArwWTCw3s4xmt6bcB8e/dk8JqN8g0V217yf3H/gIzn+dP7D/Ws0G9Yuq8OjAgWMg',
	'8v2h/QfeFCpUqHChQoUKQZKeSpL0VAKxryVJeipJkoR/zlZQOCDABgAAcCEAnQEqYABgAD5NHoxEIqGhFqzO2CgExLYAYi7ov4Dq',
	'2M0eA84umv1v76ch4drsZ/SfeB7QHsZ+5L3AP06/2v9Q62H7aeoD9g/2O95L0C+gb/R/8J6KvsR+gB+1Xpg/rj/9fke/cr90vgP/',
	'W//79YBwsP9k7Zf83Xn77MpNgbpSsYn6UeyX/oeXf609Gzqy/uA2z4yio1inu95mNWEh4exYUyocckV79cUzUqLlm2NWoqjOVfPe',
	'GPUdZg1e1Ffkb7IX03alOLN4K6zSPCKs1oh8fq3DakQhl2uqxHZrlsqUAj9unOjwpGwy9h3cXT30iFyr2v72GDx7eISEhUUhn+Qn',
	'dwbP2TtOiGcpO3MSgO/u62UAAP7/DWZgVt+3Wg7u44gsu9gMqb/zLDivsoJbXbr4w+kkz+y09a0G8pwEHhNuci3fqPCUoaidC6zZ',
	'QljrBBU+ZbyqAEDFFpYAvElu1UcMazon8Y9HinJ7hpdMDHvoCw+hPnKYF/cxt50jjwvE9YHx7f/XCXnOus9lovQKT5M2UfDIWGve',
	'2rBl1GvSY1rV3SLySs8LRd3iBuA38Yn1OyfqDPpemBs7PTT70dzrsj6A3vX/9dTRZA9f0bV453MA1Yz7naniV4GT21KbbP4eVczl',
	'PJv/ZsOFovQ75q3xvgzKsMdyoudIQrF7J0IxHeWJjWQ64PyDy2SdfDpDR7KAevcktTpaK0fBymhcIMJqS8V/1xn4CXlYQi+t7f+n',
	'hJ4H+EyOWaUYKqBhVh+TK6Lpq2CoPN+WTkwXkeMOVY37fMfu3235mJ7J7/8T2EWH70c+PD0hwb7TnqjIR4wd0ArRb/rRQgUmUXGO',
	'tLnRHnIyZF9clGvnmq0AKiu3BSAjiCrdHxXNctrprVZ92knmG8fELciFClaRK4ALGvt4fdkSty+fdZEWFB20d7r6a+bj0dSMPN26',
	'Jo8/h/OqovLOtltdcXH4x9DZu36RlWfDqnPD8Gw74DenrHfZeMNnlJ3T8mXMrbGlvnFEqL6dSRLPtFRdMMo67C14U/AFB+mQnwKE',
	'aV+k2eeFrJtLnd+Sp8TlWhnRKVYL29Ee4/ik0hfhMhFOO3n35R4Ntu5cux/R9KcafV9oY4V6KZKsQdU2FWBz2B+NMff4++yldPdj',
	'f2tW4HS5Z7T7r//SBpOwoWoPuZdQZYjCQC60qXJHniGvyYH/pODEn/VhD7ZQ/tPr8iBuiry5IFMCylXEhzndU1cHK09jjFcu3myr',
	'pE59jpSjHvkVdTgGJ2rBlcUc/gFE8aOVFk+KwzaWlCUh9H9Dz478+JdueNP4nHGo6iSPhbgG/YFsvei91OWGfXZxloM+vVAZqRjh',
	'P4MBEikXX/WHYz/8YMAkGE7osSrFnzPfKY8Bc4KteD2NnUXSXDBoeTzwqmmsagInY06RSw9zgOMXPfmL+dPy+R+FK6zCgIm4bMwP',
	'77LeOWzudf/iw/l3/5jOQ6P3x44/4JegAcrdPddE6KI/QP6Y/5AH9Rcr2w3OQor+f49cNfOpvh8afM7g6/gYy28S+k+M6hCITcPN',
	'wRC0+N46q+tqU2JCgIpbiKfhBDAuy2n11GDnzSChqms1X1u1vyUZI95MwQdIzpJoPnV97/IkExobytnyHo1ptdI3tPsnrVsMRjIC',
	'/ZrP8aZDZy2X0vRM3okc1h2ebFiEvac5hQ14vdZdaGAyUCfcKu5sUttTebLop+FKpAtW+SVeyRJO8MycFCh3oUo7rJLYCmvwJvUR',
	'VwzBNg77e7QTZCnlc8EmGe1mDMnTRd6x84xH8YgbntXM1s+h8aBYMJzF+Tt0K5i/ULp7nSb2aGn0RKWOHEIj3lj8f2OySRGf1RDh',
	'oKdPudi/3roZMrcFQmqcZu6FYLbnPqdFKRjWl36IV0eL0PBdISC+ElCD2+jrVU/gqrvQCaUx6eW6rH8nvrS1IT+byIt+mtG8+J/0',
	'KcfkY96eL2mNVNP2vgrFcOGJIRFXATSdmbKSf+qTiWS967WFw3YDV8RndYi7mG6oKC/u56rJxzL4pTz3noF5GhvUl+P/wGoXB20r',
	'GEHL9bh7v97Ib88NzE3t+DBA+JPFkBV+kgJdUpGnEk65ipAA5h0o8f7vMbFHQ+TbIq8hUebWX5Qt2YrUcPAiHwhQ1yONN4v3d9dD',
	'Dr9sfx30eARGkoE+ekn3ll7T1pkB/YoCDjwnao0Hc7ALpQDfY7aBLxOZl0pcfF+xGi49gQkWuDbm5nTQkETtA5dhhpYXp/32mwie',
	'6dDUz55aB7erD07AtN1x+IeAyiBqO8G245mrnt7M/bieX8S//aUQN6WmAAAA',
].join('');

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
