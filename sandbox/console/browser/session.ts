/**
 * The console's JSON endpoints under `/user/api`, called with the signed-in key. The key is kept in the tab's
 * sessionStorage (never a cookie, so there is nothing for another site to ride on).
 */

const STORAGE = 'multichannel-console-key';

/** An answer other than 2xx: the message of the contract's error body, and the status. */
export class ConsoleError extends Error {
	constructor(
		message: string,
		readonly status: number,
		readonly body: unknown,
	) {
		super(message);
	}
}

let signedInKey: string | null = sessionStorage.getItem(STORAGE);

export const session = {
	get key(): string | null {
		return signedInKey;
	},
	/** Uses a key for the following calls; `remember` keeps it for a reload of the tab. */
	use(key: string, remember = false): void {
		signedInKey = key;
		if (remember) sessionStorage.setItem(STORAGE, key);
	},
	forget(): void {
		signedInKey = null;
		sessionStorage.removeItem(STORAGE);
	},
};

export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
	const headers: Record<string, string> = { Accept: 'application/json' };
	if (signedInKey) headers.Authorization = `Bearer ${signedInKey}`;
	if (body !== undefined) headers['Content-Type'] = 'application/json';
	const response = await fetch(`/user/api${path}`, {
		method,
		headers,
		body: body === undefined ? undefined : JSON.stringify(body),
		cache: 'no-store',
	});
	const text = await response.text();
	let data: unknown = null;
	try {
		data = text ? JSON.parse(text) : null;
	} catch {
		data = null;
	}
	if (!response.ok) {
		const message = (data as { error?: { message?: string } } | null)?.error?.message;
		throw new ConsoleError(message ?? `HTTP ${response.status}`, response.status, data);
	}
	return data as T;
}

/** The status of a failed call, when it was an answer. */
export function statusOf(error: unknown): number | undefined {
	return error instanceof ConsoleError ? error.status : undefined;
}

export function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** Told after each API call made with the signed-in key: it changed that key's "last used". */
const keyUseListeners: Array<() => void> = [];

export function onKeyUsed(listener: () => void): void {
	keyUseListeners.push(listener);
}

/**
 * A call to the API (or the sandbox-only endpoints, `/sandbox/…`) with the signed-in key: a JSON body, or a
 * multipart one (an upload) as FormData.
 */
export async function callApi(
	method: string,
	path: string,
	body?: unknown,
	key: string | null = signedInKey,
): Promise<Response> {
	const form = body instanceof FormData;
	const response = await fetch(path, {
		method,
		headers: {
			Accept: 'application/json',
			Authorization: `Bearer ${key ?? ''}`,
			...(body === undefined || form ? {} : { 'Content-Type': 'application/json' }),
		},
		...(body === undefined ? {} : { body: form ? body : JSON.stringify(body) }),
		cache: 'no-store',
	});
	for (const listener of keyUseListeners) listener();
	return response;
}
