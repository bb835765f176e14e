/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the sandbox runs in plain Node, never inside n8n */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Where webhook deliveries may go. The sandbox posts to whatever URL a key registers, so it refuses the
 * targets a delivery must never reach: link-local addresses (169.254.0.0/16, fe80::/10) and the cloud
 * metadata services that live there or under their own names, and URLs carrying a user name or password.
 * Loopback stays allowed: the local n8n is the usual receiver. Names are checked again when a delivery
 * connects, against every address they resolve to, so a name cannot be pointed at a refused address later.
 */

const REFUSED_ADDRESSES = new BlockList();
REFUSED_ADDRESSES.addSubnet('169.254.0.0', 16, 'ipv4'); // link-local: AWS, GCP, Azure, Oracle… metadata
REFUSED_ADDRESSES.addAddress('100.100.100.200', 'ipv4'); // Alibaba Cloud metadata
REFUSED_ADDRESSES.addSubnet('fe80::', 10, 'ipv6'); // link-local
REFUSED_ADDRESSES.addAddress('fd00:ec2::254', 'ipv6'); // AWS metadata over IPv6

const METADATA_HOSTS = new Set([
	'metadata',
	'metadata.google.internal',
	'metadata.goog',
	'instance-data',
	'instance-data.ec2.internal',
]);

/** The one text a delivery that got no HTTP answer records: a closed port looks like any other failure. */
export const COULD_NOT_CONNECT = 'Could not connect to the webhook URL, or it gave no HTTP answer';

/** Whether an IP address (IPv4, IPv6, IPv4-mapped IPv6) is one deliveries must not reach. */
export function isRefusedAddress(address: string): boolean {
	const family = isIP(address);
	if (family === 0) return false;
	return REFUSED_ADDRESSES.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/** What is wrong with a webhook URL (for `body.url`), or undefined when deliveries may go there. */
export function webhookUrlProblem(text: string): string | undefined {
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		return 'must be a valid URL';
	}
	if (url.username || url.password) {
		return 'must not contain a user name or password; let the receiver check the signature instead';
	}
	const host = url.hostname
		.replace(/^\[|\]$/g, '')
		.replace(/\.$/, '')
		.toLowerCase();
	if (METADATA_HOSTS.has(host)) return 'must not point at a cloud metadata service';
	if (isRefusedAddress(host)) return 'must not point at a link-local or cloud metadata address';
	return undefined;
}

/** The URL as it may be shown: without a user name or password. */
export function withoutCredentials(text: string): string {
	try {
		const url = new URL(text);
		if (!url.username && !url.password) return text;
		url.username = '';
		url.password = '';
		return url.toString();
	} catch {
		return text;
	}
}

/**
 * A `lookup` for the delivery agent's connections: resolves as usual, and fails when any address of the
 * name is refused.
 */
export function guardedLookup(resolve: typeof dnsLookup = dnsLookup): LookupFunction {
	return (hostname, options, callback) => {
		resolve(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
			if (error) {
				callback(error, '', 4);
				return;
			}
			if (addresses.some((entry) => isRefusedAddress(entry.address))) {
				const refused: NodeJS.ErrnoException = new Error(
					`${hostname} resolves to a link-local or cloud metadata address`,
				);
				refused.code = 'EREFUSEDTARGET';
				callback(refused, '', 4);
				return;
			}
			if (options.all) {
				(callback as unknown as (error: null, all: LookupAddress[]) => void)(null, addresses);
			} else {
				callback(null, addresses[0].address, addresses[0].family);
			}
		});
	};
}
