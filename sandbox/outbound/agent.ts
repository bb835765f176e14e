import { Agent, buildConnector } from 'undici';

import {
	guardedLookup,
	RefusedTarget,
	refusedAddress,
	systemResolve,
	type OutboundPolicy,
	type Resolve,
} from './policy';

/**
 * The undici agent of one purpose (deliveries, file fetches): every connection it opens is checked against
 * the policy on the address actually connected to. Names are resolved through the guard, so a name that
 * resolves to a refused address (or is pointed at one later: DNS rebinding) is never connected to; an
 * address written in the URL is checked before connecting; and the connected socket's remote address is
 * checked once more, whatever path led to it.
 */
export function outboundAgent(policy: OutboundPolicy, resolve: Resolve = systemResolve): Agent {
	const connect = buildConnector({ lookup: guardedLookup(policy, resolve) });
	return new Agent({
		keepAliveTimeout: 1_000,
		connect: (options, callback) => {
			const written = refusedAddress(options.hostname, policy);
			if (written) {
				callback(new RefusedTarget(`${options.hostname} is ${written}`), null);
				return;
			}
			connect(options, (error, socket) => {
				if (error) {
					callback(error, null);
					return;
				}
				const reached = refusedAddress(socket?.remoteAddress ?? '', policy);
				if (reached || !socket) {
					socket?.destroy();
					callback(new RefusedTarget(`${options.hostname} reached ${reached}`), null);
					return;
				}
				callback(null, socket);
			});
		},
	});
}
