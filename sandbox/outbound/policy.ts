/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the sandbox runs in plain Node, never inside n8n */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';

import { addressKind, type RefusedKind } from './addresses';

/**
 * The one outbound-URL policy: where the sandbox may connect when it delivers (webhooks, answer
 * registrations) or fetches (files sent by URL). http(s) only, no user name or password in the URL, never a
 * link-local, cloud metadata, unspecified, multicast or broadcast address, in whatever form it is written
 * (addresses.ts). Loopback depends on the purpose: receivers may be on loopback (the local n8n is the usual
 * one); a file's bytes are served back to whoever sent its URL, so fetching one from loopback would read the
 * host's local services out, and is refused unless the sandbox is started to allow it.
 */

export interface OutboundPolicy {
	/** Whether loopback addresses (127.0.0.0/8, ::1, `localhost`) may be reached. */
	loopback: boolean;
	/** What the loopback refusal says, for the purposes that refuse it. */
	loopbackHint?: string;
}

/** How names are resolved: `dns.lookup`'s shape; tests inject one so no made-up name reaches real DNS. */
export type Resolve = (
	hostname: string,
	options: { all: true; family?: number },
	callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

export const systemResolve: Resolve = (hostname, options, callback) =>
	dnsLookup(hostname, options, callback);

const METADATA_HOSTS = new Set([
	'metadata',
	'metadata.google.internal',
	'metadata.goog',
	'instance-data',
	'instance-data.ec2.internal',
]);

/** Why the policy refuses an IP address (worded to follow "must not point at"); undefined when it may be reached. */
export function refusedAddress(address: string, policy: OutboundPolicy): string | undefined {
	const kind: RefusedKind | undefined = addressKind(address);
	if (kind === 'a loopback address' && policy.loopback) return undefined;
	return kind;
}

/** What is wrong with a URL the sandbox would connect to (a message for its field), or undefined. */
export function urlProblem(text: string, policy: OutboundPolicy): string | undefined {
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		return 'must be a valid URL';
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL';
	if (url.username || url.password) {
		return 'must not contain a user name or password; let the receiver check the signature instead';
	}
	const host = url.hostname
		.replace(/^\[|\]$/g, '')
		.replace(/\.$/, '')
		.toLowerCase();
	if (METADATA_HOSTS.has(host)) return 'must not point at a cloud metadata service';
	const loopbackName = host === 'localhost' || host.endsWith('.localhost');
	const refused =
		loopbackName && !policy.loopback ? 'a loopback address' : refusedAddress(host, policy);
	if (!refused) return undefined;
	const hint = refused === 'a loopback address' ? (policy.loopbackHint ?? '') : '';
	return `must not point at ${refused}${hint}`;
}

/** The error of a connection the policy refused. */
export class RefusedTarget extends Error {
	readonly code = 'EREFUSEDTARGET';
}

export function isRefusedTarget(error: unknown): error is RefusedTarget {
	return error instanceof RefusedTarget;
}

/** A `lookup` for connections: resolves as usual, and fails when any address of the name is refused. */
export function guardedLookup(
	policy: OutboundPolicy,
	resolve: Resolve = systemResolve,
): LookupFunction {
	return (hostname, options, callback) => {
		resolve(
			hostname,
			{ family: options.family as number | undefined, all: true },
			(error, addresses) => {
				if (error) {
					callback(error, '', 4);
					return;
				}
				const refused = addresses
					.map((entry) => refusedAddress(entry.address, policy))
					.find(Boolean);
				if (refused || addresses.length === 0) {
					callback(new RefusedTarget(`${hostname} resolves to ${refused ?? 'no address'}`), '', 4);
					return;
				}
				if (options.all) {
					(callback as unknown as (error: null, all: LookupAddress[]) => void)(null, addresses);
				} else {
					callback(null, addresses[0].address, addresses[0].family);
				}
			},
		);
	};
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
