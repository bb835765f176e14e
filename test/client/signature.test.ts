import { createHmac } from 'crypto';

import { signPayload, unwrapEvent, verifySignature } from '../../src/client';
import { testKey } from '../support/client';

const secret = testKey('whsec');
const oldSecret = testKey('whsec');
const otherSecret = testKey('whsec');
const body = JSON.stringify({
	id: 'evt_1',
	type: 'link.clicked',
	createdAt: '2026-11-22T10:00:00Z',
	data: {},
});
const now = 1_795_000_000;

describe('webhook signatures', () => {
	it('signs as SERVICE.md says: t=<seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>', () => {
		const expected = createHmac('sha256', secret).update(`${now}.${body}`).digest('hex');
		expect(signPayload(secret, body, now)).toBe(`t=${now},v1=${expected}`);
	});

	it('accepts a valid delivery, from a string or the raw bytes', () => {
		const header = signPayload(secret, body, now);
		expect(verifySignature({ payload: body, header, secrets: secret, nowSeconds: now })).toEqual({
			valid: true,
			timestamp: now,
		});
		expect(
			verifySignature({
				payload: Buffer.from(body),
				header,
				secrets: secret,
				nowSeconds: now + 299,
			}).valid,
		).toBe(true);
	});

	it('rejects a tampered body', () => {
		const header = signPayload(secret, body, now);
		const tampered = body.replace('link.clicked', 'link.deleted');
		expect(
			verifySignature({ payload: tampered, header, secrets: secret, nowSeconds: now }),
		).toEqual({ valid: false, reason: 'mismatch' });
	});

	it('rejects a signature made with another secret', () => {
		const header = signPayload(otherSecret, body, now);
		expect(verifySignature({ payload: body, header, secrets: secret, nowSeconds: now })).toEqual({
			valid: false,
			reason: 'mismatch',
		});
	});

	it('rejects a timestamp more than 300 s away, either way', () => {
		expect(
			verifySignature({
				payload: body,
				header: signPayload(secret, body, now - 301),
				secrets: secret,
				nowSeconds: now,
			}).valid,
		).toBe(false);
		expect(
			verifySignature({
				payload: body,
				header: signPayload(secret, body, now + 301),
				secrets: secret,
				nowSeconds: now,
			}),
		).toEqual({ valid: false, reason: 'stale' });
	});

	it.each([
		['', 'missing'],
		[undefined, 'missing'],
		['v1=abc', 'malformed'],
		[`t=${now}`, 'malformed'],
		[`t=soon,v1=${'a'.repeat(64)}`, 'malformed'],
		[`t=${now},v1=${'z'.repeat(64)}`, 'malformed'],
		[`t=${now},v1=${'a'.repeat(63)}`, 'malformed'],
		[`t=${now};v1=${'a'.repeat(64)}`, 'malformed'],
		['garbage', 'malformed'],
	])('rejects the header %p as %s', (header, reason) => {
		expect(verifySignature({ payload: body, header, secrets: secret, nowSeconds: now })).toEqual({
			valid: false,
			reason,
		});
	});

	it('accepts any of several v1 values, so a secret can be rotated', () => {
		const header = signPayload([oldSecret, secret], body, now);
		expect(header.match(/v1=/g)).toHaveLength(2);
		expect(verifySignature({ payload: body, header, secrets: secret, nowSeconds: now }).valid).toBe(
			true,
		);
		expect(
			verifySignature({
				payload: body,
				header,
				secrets: oldSecret,
				nowSeconds: now,
			}).valid,
		).toBe(true);
		expect(
			verifySignature({
				payload: body,
				header,
				secrets: otherSecret,
				nowSeconds: now,
			}).valid,
		).toBe(false);
	});

	it('accepts several secrets on the receiving side', () => {
		const header = signPayload(secret, body, now);
		expect(
			verifySignature({
				payload: body,
				header,
				secrets: [otherSecret, secret],
				nowSeconds: now,
			}).valid,
		).toBe(true);
	});
});

describe('unwrapping a delivery', () => {
	const headers = (value: string | undefined) => ({ 'x-multichannel-signature': value });

	it('gives the event and which secret signed it', () => {
		const delivery = unwrapEvent({
			payload: Buffer.from(body),
			headers: headers(signPayload(secret, body, now)),
			secrets: [otherSecret, secret],
			nowSeconds: now,
		});
		expect(delivery).toMatchObject({ ok: true, signedWith: 1, event: { id: 'evt_1' } });
	});

	it('answers 401 for a bad signature, with the reason beside it', () => {
		expect(
			unwrapEvent({
				payload: body,
				headers: headers(signPayload(otherSecret, body, now)),
				secrets: [secret],
				nowSeconds: now,
			}),
		).toMatchObject({ ok: false, status: 401, code: 'invalid_signature', reason: 'mismatch' });
		expect(
			unwrapEvent({
				payload: body,
				headers: headers(undefined),
				secrets: [secret],
				nowSeconds: now,
			}),
		).toMatchObject({ ok: false, status: 401, reason: 'missing' });
		expect(
			unwrapEvent({ payload: body, headers: headers(signPayload(secret, body, now)), secrets: [] }),
		).toMatchObject({ ok: false, status: 401, reason: 'no_secret' });
	});

	it('answers 400 for a signed body that is not an event', () => {
		for (const payload of ['not json', '{"id":"evt_1"}']) {
			expect(
				unwrapEvent({
					payload,
					headers: headers(signPayload(secret, payload, now)),
					secrets: [secret],
					nowSeconds: now,
				}),
			).toMatchObject({ ok: false, status: 400, code: 'invalid_body' });
		}
	});
});
