import { createHash, createHmac, timingSafeEqual } from 'crypto';

import { EventEnvelope } from './events';

export const SIGNATURE_HEADER = 'x-multichannel-signature';
export const EVENT_ID_HEADER = 'x-multichannel-event-id';
export const DELIVERY_ATTEMPT_HEADER = 'x-multichannel-delivery-attempt';
/** Unique per request the service sends: a receiver names it when it claims the event. */
export const DELIVERY_ID_HEADER = 'x-multichannel-delivery-id';
export const SIGNATURE_TOLERANCE_SECONDS = 300;
/**
 * The receiver's acknowledgement: its 2xx answer carries the request's delivery id here (or as `acknowledged` in
 * a JSON body). A webhook registered with `requireAcknowledgement` counts nothing else as delivered.
 */
export const ACK_HEADER = 'x-multichannel-ack';
/** The event type of the signed probe the service sends a disabled webhook; acknowledged, it is enabled again. */
export const PING_EVENT = 'ping';

/**
 * What the service shows of a webhook's signing secret (`secretFingerprint`), so that a receiver can tell
 * whether the secret it keeps is the one deliveries are signed with, without the secret ever being shown:
 * `sha256:` and the hex SHA-256 of a fixed label and the secret.
 */
export function secretFingerprint(secret: string): string {
	return `sha256:${createHash('sha256').update(`multichannel webhook secret\n${secret}`).digest('hex')}`;
}

export type SignatureFailure = 'missing' | 'malformed' | 'stale' | 'mismatch';
export type SignatureCheck =
	| { valid: true; timestamp: number }
	| { valid: false; reason: SignatureFailure };

function hmac(secret: string, timestamp: number, payload: string | Buffer): Buffer {
	return createHmac('sha256', secret).update(`${timestamp}.`).update(payload).digest();
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`, one `v1` per secret given. */
export function signPayload(
	secrets: string | readonly string[],
	payload: string | Buffer,
	timestamp = Math.floor(Date.now() / 1000),
): string {
	const list = typeof secrets === 'string' ? [secrets] : secrets;
	return [
		`t=${timestamp}`,
		...list.map((secret) => `v1=${hmac(secret, timestamp, payload).toString('hex')}`),
	].join(',');
}

/**
 * What a signed request to the service (a signed claim) signs besides its body: its method and its path as the
 * service routes it (`/api/v1/…`, whatever prefix the base URL adds before it), as `<METHOD> <path>` and a line
 * break. So a signature is taken only by the endpoint and webhook it was made for, and a delivery's signature
 * (`<t>.<body>`, a body that never starts with a method) is never a claim's. Signed and verified with
 * `signPayload` and `verifySignature` over this.
 */
export function signedRequestPayload(
	method: string,
	path: string,
	body: string | Buffer = '',
): Buffer {
	return Buffer.concat([Buffer.from(`${method.toUpperCase()} ${path}\n`), Buffer.from(body)]);
}

/**
 * Verifies a delivery over its raw body. Accepts several `v1=` values in the header and several secrets,
 * so that a secret can be rotated without dropping deliveries. Compares in constant time.
 */
export function verifySignature(options: {
	payload: string | Buffer;
	header: string | string[] | undefined;
	secrets: string | readonly string[];
	toleranceSeconds?: number;
	nowSeconds?: number;
}): SignatureCheck {
	const header = Array.isArray(options.header) ? options.header.join(',') : options.header;
	if (header === undefined || header.trim() === '') return { valid: false, reason: 'missing' };

	let timestamp: number | undefined;
	const signatures: Buffer[] = [];
	for (const part of header.split(',')) {
		const [key, value, ...rest] = part.trim().split('=');
		if (value === undefined || rest.length > 0) return { valid: false, reason: 'malformed' };
		if (key === 't') {
			if (!/^\d{1,12}$/.test(value)) return { valid: false, reason: 'malformed' };
			timestamp = Number(value);
		} else if (key === 'v1') {
			if (!/^[0-9a-f]{64}$/i.test(value)) return { valid: false, reason: 'malformed' };
			signatures.push(Buffer.from(value, 'hex'));
		}
	}
	if (timestamp === undefined || signatures.length === 0)
		return { valid: false, reason: 'malformed' };

	const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
	const tolerance = options.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS;
	if (Math.abs(now - timestamp) > tolerance) return { valid: false, reason: 'stale' };

	const secrets = typeof options.secrets === 'string' ? [options.secrets] : options.secrets;
	for (const secret of secrets) {
		const expected = hmac(secret, timestamp, options.payload);
		for (const signature of signatures) {
			if (signature.length === expected.length && timingSafeEqual(signature, expected)) {
				return { valid: true, timestamp };
			}
		}
	}
	return { valid: false, reason: 'mismatch' };
}

/** Why a delivery is refused, in words for a log line (never sent back: the answer does not say which). */
export const SIGNATURE_FAILURE_TEXT: Record<SignatureFailure | 'no_secret', string> = {
	missing: 'no signature header',
	malformed: 'a malformed signature header',
	stale: `a signature timestamp more than ${SIGNATURE_TOLERANCE_SECONDS} s away`,
	mismatch: 'a signature that does not match',
	no_secret: 'no secret to check it against',
};

/** A delivery that is not taken: the status, code and message to answer it with, and why (for a log line). */
export type UnwrapFailure =
	| {
			status: 401;
			code: 'invalid_signature';
			message: string;
			reason: SignatureFailure | 'no_secret';
	  }
	| { status: 400; code: 'invalid_body'; message: string; reason: 'not_an_event' };

export type Unwrapped =
	| {
			ok: true;
			event: EventEnvelope;
			/** Which of the secrets given signed it (its index). */
			signedWith: number;
	  }
	| ({ ok: false } & UnwrapFailure);

/** The body of a signed delivery: an event envelope (parsed leniently), or a 400. */
function parseEvent(payload: string | Buffer, signedWith: number): Unwrapped {
	let body: unknown;
	try {
		body = JSON.parse(payload.toString('utf8'));
	} catch {
		body = undefined;
	}
	const parsed = EventEnvelope.safeParse(body);
	if (parsed.success) return { ok: true, event: parsed.data, signedWith };
	return {
		ok: false,
		status: 400,
		code: 'invalid_body',
		message: 'The body is not a Multichannel event (JSON)',
		reason: 'not_an_event',
	};
}

/**
 * One delivery as its receiver takes it (a trigger, a waiting Send and Wait): the signature over the exact
 * bytes received, checked against each secret in turn, then the body, parsed as an event envelope. Gives the
 * event and which secret signed it, or what to answer instead: 401 for the signature (the answer does not say
 * what was wrong with it, `reason` does), 400 for a signed body that is no event.
 */
export function unwrapEvent(options: {
	payload: string | Buffer;
	headers: Record<string, string | string[] | undefined>;
	secrets: readonly string[];
	toleranceSeconds?: number;
	nowSeconds?: number;
}): Unwrapped {
	const { payload, toleranceSeconds, nowSeconds } = options;
	const header = options.headers[SIGNATURE_HEADER];
	let reason: SignatureFailure | 'no_secret' = 'no_secret';
	for (const [index, secret] of options.secrets.entries()) {
		const check = verifySignature({
			payload,
			header,
			secrets: secret,
			toleranceSeconds,
			nowSeconds,
		});
		if (check.valid) return parseEvent(payload, index);
		reason = check.reason;
	}
	return {
		ok: false,
		status: 401,
		code: 'invalid_signature',
		message: 'The X-Multichannel-Signature header is missing, malformed, stale or does not match',
		reason,
	};
}
