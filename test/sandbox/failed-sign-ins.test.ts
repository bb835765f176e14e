import { raw, suiteSandbox } from '../support/sandbox';

/**
 * Requests with a missing or bad key are rate limited by client address (60 a minute), in a budget of their
 * own: past it they answer 429 with Retry-After, while a good key from the same address keeps working.
 */
describe('failed sign-ins', () => {
	const suite = suiteSandbox({ rateLimit: { limit: 1000, windowMs: 60_000 } });

	it('answers 429 with Retry-After past 60 bad keys a minute, never to a good key', async () => {
		const { sandbox, keys } = suite;
		const bad = { key: 'mcw_not-a-real-key' };
		for (let attempt = 0; attempt < 60; attempt++) {
			const answer = await raw(sandbox.baseUrl, 'GET', '/api/v1/instances', bad);
			expect([attempt, answer.status]).toEqual([attempt, 401]);
		}
		for (const [path, options] of [
			['/api/v1/instances', bad],
			['/api/v1/instances', {}],
			['/user/api/session', bad],
		] as const) {
			const answer = await raw(sandbox.baseUrl, 'GET', path, options);
			expect([path, answer.status]).toEqual([path, 429]);
			expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
			expect(answer.body).toMatchObject({ error: { code: 'rate_limited' } });
		}
		const good = await raw(sandbox.baseUrl, 'GET', '/api/v1/instances', { key: keys.workspace });
		expect(good.status).toBe(200);
		const console = await raw(sandbox.baseUrl, 'GET', '/user/api/session', { key: keys.workspace });
		expect(console.status).toBe(200);
	});
});
