import type { Agent } from 'undici';

import { outboundAgent } from './agent';
import { systemResolve, type OutboundPolicy, type Resolve } from './policy';

/** How the sandbox reaches out, as `startSandbox({ outbound })` takes it. */
export interface OutboundOptions {
	/**
	 * Files sent by URL may be fetched from loopback (a file server on this machine; the tests). Off by default:
	 * a fetched file is served back to the key that sent its URL.
	 */
	mediaFromLoopback?: boolean;
	/** How names are resolved (`dns.lookup` by default); tests inject one so that nothing leaves the machine. */
	resolve?: Resolve;
}

/** One purpose's policy and the agent that enforces it on every connection. */
export interface OutboundPurpose {
	policy: OutboundPolicy;
	agent: Agent;
}

/** The purposes the sandbox connects out for: deliveries to receivers, and fetches of files sent by URL. */
export class Outbound {
	readonly deliveries: OutboundPurpose;
	readonly media: OutboundPurpose;

	constructor(options: OutboundOptions = {}) {
		const resolve = options.resolve ?? systemResolve;
		const receivers: OutboundPolicy = { loopback: true };
		const files: OutboundPolicy = {
			loopback: options.mediaFromLoopback === true,
			loopbackHint:
				': the file would be served back (start the sandbox with --media-from-loopback to allow it)',
		};
		this.deliveries = { policy: receivers, agent: outboundAgent(receivers, resolve) };
		this.media = { policy: files, agent: outboundAgent(files, resolve) };
	}

	async close(): Promise<void> {
		await Promise.all([this.deliveries.agent.destroy(), this.media.agent.destroy()]);
	}
}
