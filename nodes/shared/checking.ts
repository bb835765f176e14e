import type { Transport } from '../../src/client';

/**
 * Checking every item before any is sent (`executeActions`): an item's operation runs on a client whose
 * transport sends nothing. Everything the node checks before a request (its numbers, texts, buttons, files,
 * Send At; the client's validation of the request) runs as in the real run, and the first request stops it.
 */

/** Thrown where the request would have gone: the item passed every check made before it. */
export class NotSent extends Error {
	constructor() {
		super('Checked only: this request was not sent');
		this.name = 'NotSent';
	}
}

/** The transport of the checking client: every request ends in `NotSent`. */
export const notSending: Transport = {
	async send() {
		throw new NotSent();
	},
};

/** Runs an item's operation on the checking client: what it found wrong before any request, or undefined. */
export async function problemBeforeSending(run: () => Promise<unknown>): Promise<unknown> {
	try {
		await run();
		return undefined;
	} catch (error) {
		return error instanceof NotSent ? undefined : error;
	}
}
