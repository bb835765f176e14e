import type { Resolve } from '../../sandbox/outbound/policy';

/**
 * Name resolution for test sandboxes: `localhost` is loopback, the names a test gives resolve to its
 * addresses, and any other name is unknown (ENOTFOUND) at once. No name a test makes up reaches real DNS.
 */
export function resolveOnly(names: Record<string, string[]> = {}): Resolve {
	const known: Record<string, string[]> = { localhost: ['127.0.0.1'], ...names };
	return (hostname, options, callback) => {
		const addresses = known[hostname.toLowerCase()];
		if (!addresses) {
			const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
			error.code = 'ENOTFOUND';
			callback(error, []);
			return;
		}
		callback(
			null,
			addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
		);
	};
}
