import nock from 'nock';

import {
	ApiError,
	AuthenticationError,
	BadRequestError,
	ConflictError,
	NotFoundError,
	PermissionDeniedError,
	RateLimitError,
	ServerError,
	parseRetryAfter,
	redactSecrets,
} from '../../src/client';
import { mockService, clients, KEY, resetNock } from '../support/client';

// nock patches Node's http for the whole worker: undone when this file ends (test/nodes/quiet.test.ts).
afterAll(() => nock.restore());

beforeEach(resetNock);
afterAll(() => nock.enableNetConnect());

const errorBody = (code: string, message: string, details: unknown[] = []) => ({
	error: { code, message, details, requestId: `req_${code}` },
});

describe('error classes from status and error body', () => {
	it.each([
		[400, BadRequestError, 'validation_failed'],
		[401, AuthenticationError, 'unauthenticated'],
		[403, PermissionDeniedError, 'insufficient_scope'],
		[404, NotFoundError, 'not_found'],
		[409, ConflictError, 'instance_not_connected'],
		[413, BadRequestError, 'payload_too_large'],
		[429, RateLimitError, 'rate_limited'],
		[500, ServerError, 'internal_error'],
		[418, ApiError, 'teapot'],
	])('HTTP %i → %p', async (status, ErrorClass, code) => {
		// maxRetries 0: this test is about the mapping, not the retries.
		const { workspace } = clients({ maxRetries: 0 });
		mockService()
			.get('/api/v1/instances/i1')
			.reply(status, errorBody(code, `Something about ${code}`, [{ field: 'x' }]), {
				'X-RateLimit-Limit': '100',
				'X-RateLimit-Remaining': '0',
				'X-RateLimit-Reset': '1767225600',
			});
		const error = (await workspace.instances
			.get({ instanceId: 'i1' })
			.catch((e: unknown) => e)) as ApiError;
		expect(error).toBeInstanceOf(ErrorClass);
		expect(error).toBeInstanceOf(ApiError);
		expect(error.status).toBe(status);
		expect(error.code).toBe(code);
		expect(error.message).toBe(`Something about ${code}`);
		expect(error.requestId).toBe(`req_${code}`);
		expect(error.details).toEqual([{ field: 'x' }]);
		expect(error.rateLimit).toEqual({ limit: 100, remaining: 0, reset: 1767225600 });
	});

	it('falls back to the status and the X-Request-Id header when the body is not the contract’s', async () => {
		const { workspace } = clients({ maxRetries: 0 });
		mockService()
			.get('/api/v1/models')
			.reply(502, '<html>Bad gateway</html>', { 'X-Request-Id': 'req_proxy' });
		const error = (await workspace.models.list().catch((e: unknown) => e)) as ServerError;
		expect(error).toBeInstanceOf(ServerError);
		expect(error.code).toBe('http_502');
		expect(error.requestId).toBe('req_proxy');
		expect(error.message).toBe('<html>Bad gateway</html>');
	});

	it('never carries the API key, even when the server echoes it', async () => {
		const { workspace } = clients({ maxRetries: 0 });
		mockService()
			.get('/api/v1/models')
			.reply(
				401,
				errorBody('unauthenticated', `Key ${KEY} was revoked (Authorization: Bearer ${KEY})`, [
					`key ${KEY}`,
				]),
			);
		const error = (await workspace.models.list().catch((e: unknown) => e)) as AuthenticationError;
		expect(error).toBeInstanceOf(AuthenticationError);
		const everything = JSON.stringify({
			message: error.message,
			details: error.details,
			stack: error.stack,
			error,
		});
		expect(everything).not.toContain(KEY);
		expect(error.message).toContain('[redacted]');
	});
});

describe('helpers', () => {
	it('parses Retry-After as seconds or as an HTTP date', () => {
		const now = Date.parse('2026-11-22T10:00:00Z');
		expect(parseRetryAfter('3', now)).toBe(3000);
		expect(parseRetryAfter('0.5', now)).toBe(500);
		expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:07 GMT', now)).toBe(7000);
		expect(parseRetryAfter('Sun, 22 Nov 2026 09:00:00 GMT', now)).toBe(0);
		expect(parseRetryAfter('soon', now)).toBeUndefined();
		expect(parseRetryAfter(undefined, now)).toBeUndefined();
	});

	it('redacts keys of every kind and webhook secrets', () => {
		const text = redactSecrets(
			'mcw_abcdefgh123 mcl_abcdefgh123 mca_abcdefgh123 whsec_abcdefgh123 Bearer anything-else-123',
		);
		expect(text).toBe(
			'mcw_[redacted] mcl_[redacted] mca_[redacted] whsec_[redacted] Bearer [redacted]',
		);
		expect(redactSecrets('my own secret: hunter2-long', ['hunter2-long'])).toBe(
			'my own secret: [redacted]',
		);
	});

	it('redacts a given value of any length: a long one wherever it stands, a short one as a whole word', () => {
		expect(redactSecrets('url?key=hunter2-long&x=1', ['hunter2-long'])).toBe(
			'url?key=[redacted]&x=1',
		);
		expect(redactSecrets('Key Qz7k was revoked ("Qz7k"); key=Qz7k.', ['Qz7k'])).toBe(
			'Key [redacted] was revoked ("[redacted]"); key=[redacted].',
		);
		// Not inside other words, so that a message stays readable.
		expect(redactSecrets('Qz7kx xQz7k Qz7k_1 Qz7k-2', ['Qz7k'])).toBe('Qz7kx xQz7k Qz7k_1 Qz7k-2');
		expect(redactSecrets('the api key was rejected', ['api'])).toBe(
			'the [redacted] key was rejected',
		);
		// Characters special in patterns are taken literally; an empty value redacts nothing.
		expect(redactSecrets('a.c abc (a.c)', ['a.c', ''])).toBe('[redacted] abc ([redacted])');
		// A short value inside a longer one does not keep the longer one from being redacted whole.
		expect(redactSecrets('secret-value-1 secret', ['secret', 'secret-value-1'])).toBe(
			'[redacted] [redacted]',
		);
	});
});
