/* eslint-disable @n8n/community-nodes/no-restricted-globals -- tests run in plain Node, never inside n8n */
/** Waiting in tests: a pause, and polling until something holds. */

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls until `check` returns (or resolves to) a value (not undefined/false), for at most `timeoutMs`. */
export async function waitFor<T>(
	check: () => T | undefined | false | Promise<T | undefined | false>,
	timeoutMs = 5000,
	what = 'condition',
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await check();
		if (value !== undefined && value !== false) return value;
		if (Date.now() > deadline)
			throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
		await sleep(10);
	}
}
