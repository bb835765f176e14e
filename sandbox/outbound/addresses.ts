/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the sandbox runs in plain Node, never inside n8n */
import { isIP } from 'node:net';

/**
 * Which IP addresses the sandbox never connects to, whatever form they are written in: IPv4, IPv6, and the
 * IPv6 forms that carry an IPv4 address (mapped `::ffff:a.b.c.d`, compatible `::a.b.c.d`, NAT64
 * `64:ff9b::a.b.c.d`, 6to4, Teredo), which reach the IPv4 address they carry.
 */

/** Why an address is refused, worded to follow "must not point at". */
export type RefusedKind =
	| 'a link-local address'
	| 'a cloud metadata address'
	| 'an unspecified address'
	| 'a multicast or broadcast address'
	| 'a loopback address';

/** What an IP address is, when it is one the sandbox may refuse; undefined for any other address or text. */
export function addressKind(address: string): RefusedKind | undefined {
	const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
	const family = isIP(bare);
	if (family === 4) return ipv4Kind(bare.split('.').map(Number));
	if (family === 6) return ipv6Kind(ipv6Words(bare));
	return undefined;
}

function ipv4Kind([a, b, c, d]: number[]): RefusedKind | undefined {
	if (a === 0) return 'an unspecified address'; // 0.0.0.0/8 reaches this host
	if (a === 127) return 'a loopback address';
	if (a === 169 && b === 254) return 'a link-local address'; // and AWS, GCP, Azure, Oracle metadata
	if (a === 100 && b === 100 && c === 100 && d === 200) return 'a cloud metadata address'; // Alibaba
	if (a >= 224) return 'a multicast or broadcast address'; // 224/4 multicast, 240/4 reserved, broadcast
	return undefined;
}

function ipv6Kind(words: number[]): RefusedKind | undefined {
	const zerosUpTo = (end: number) => words.slice(0, end).every((word) => word === 0);
	if (zerosUpTo(8)) return 'an unspecified address';
	if (zerosUpTo(7) && words[7] === 1) return 'a loopback address';
	if ((words[0] & 0xffc0) === 0xfe80) return 'a link-local address';
	if (words[0] >> 8 === 0xff) return 'a multicast or broadcast address';
	if (words.join(':') === [0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254].join(':'))
		return 'a cloud metadata address'; // AWS over IPv6
	const carried = carriedIpv4(words, zerosUpTo);
	return carried ? ipv4Kind(carried) : undefined;
}

/** The IPv4 address an IPv6 address carries, in the forms that reach it. */
function carriedIpv4(words: number[], zerosUpTo: (end: number) => boolean): number[] | undefined {
	const octets = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff];
	const [w0, w1, w2] = words;
	const mapped = zerosUpTo(5) && words[5] === 0xffff; // ::ffff:0:0/96
	const translated = zerosUpTo(4) && words[4] === 0xffff && words[5] === 0; // ::ffff:0:0:0/96
	const compatible = zerosUpTo(6); // ::/96 (deprecated, still routed by some stacks)
	const nat64 = w0 === 0x64 && w1 === 0xff9b && (w2 === 0 || w2 === 1); // 64:ff9b::/96, 64:ff9b:1::/48
	if (mapped || translated || compatible || nat64) return octets(words[6], words[7]);
	if (w0 === 0x2002) return octets(w1, w2); // 6to4
	if (w0 === 0x2001 && w1 === 0) return octets(words[6] ^ 0xffff, words[7] ^ 0xffff); // Teredo client
	return undefined;
}

/** The eight 16-bit words of a valid IPv6 address (a dotted IPv4 tail included). */
function ipv6Words(address: string): number[] {
	let text = address;
	const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
	if (dotted) {
		const [a, b, c, d] = dotted.slice(1).map(Number);
		text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
	}
	const [head, tail] = text.split('::');
	const part = (piece: string | undefined) => (piece ? piece.split(':') : []);
	const missing = tail === undefined ? 0 : 8 - part(head).length - part(tail).length;
	return [...part(head), ...Array<string>(missing).fill('0'), ...part(tail)].map((word) =>
		parseInt(word, 16),
	);
}
