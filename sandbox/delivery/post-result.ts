/** What a delivery attempt's POST came to, and how it reads (sandbox/delivery/delivery-engine.ts). */

/** What one POST to a receiver came to: its status, or why there was none. */
export interface PostResult {
	status: number | null;
	error: string | null;
	/** The sandbox was closing, or the event could not be saved first: the attempt does not count. */
	aborted: boolean;
	/** The `X-Multichannel-Delivery-Id` it carried. */
	deliveryId: string;
	/** The answer named that delivery id (`X-Multichannel-Ack`, or `acknowledged` in a JSON body). */
	acknowledged: boolean;
	/** No answer came within the attempt's deadline. */
	timedOut: boolean;
}

export function isSuccess(status: number | null): boolean {
	return status !== null && status >= 200 && status < 300;
}

/** What a failed attempt records: a 2xx that did not acknowledge says so (a proxy, a server still starting). */
export function failureText(status: number | null): string {
	return isSuccess(status)
		? `HTTP ${status} without an acknowledgement of this delivery`
		: `HTTP ${status}`;
}
